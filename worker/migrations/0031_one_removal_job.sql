-- Moves data: every removal job (the kit's github-remove, the extra repositories' extra-withdraw) into one github-remove job that names its repository.
-- One take-back job for every repository (issue 40). The kit's `github-remove` jobs now name
-- their grant's repository key (`remove:<session>:<key>:<version>:<invitation>`, the payload's
-- `repositoryKey` and `repository`), and the extra repositories' stale invitations, queued as
-- `extra-withdraw` jobs before, become `github-remove` jobs of the same kind. Every job keeps its
-- state, tries and next run, so a removal under way (or failed for good) before this migration
-- is the same after it. An `extra-withdraw` job named no grant version: it becomes version -1,
-- which leaves no grant out of the check for a live holder and marks none removal_failed, as the
-- job did before.
-- Rollback: it changes the outbox's rows only; restore the D1 with Time Travel
-- (`wrangler d1 time-travel restore`, docs/deployment.mdx) and deploy the worker before it.

UPDATE jobs SET
  key = 'remove:' || json_extract(payload, '$.sessionId') || ':kit:'
    || substr(key, length('remove:' || json_extract(payload, '$.sessionId') || ':') + 1),
  payload = json_set(payload, '$.repositoryKey', 'kit', '$.repository', json('null'))
WHERE kind = 'github-remove' AND json_extract(payload, '$.repositoryKey') IS NULL;

UPDATE jobs SET
  kind = 'github-remove',
  key = 'remove:' || json_extract(payload, '$.sessionId') || ':' || json_extract(payload, '$.key') || ':-1:'
    || json_extract(payload, '$.invitationId'),
  payload = json_object(
    'sessionId', json_extract(payload, '$.sessionId'),
    'repositoryKey', json_extract(payload, '$.key'),
    'repository', json_extract(payload, '$.repository'),
    'version', -1,
    'invitationId', json_extract(payload, '$.invitationId'),
    'githubUserId', json_extract(payload, '$.githubUserId')
  )
WHERE kind = 'extra-withdraw';
