import type {GrantStatus} from '../../../../src/config/api';

/**
 * Which grants hold an account on a repository, as values and as SQL: a leaf module (no D1 types),
 * so that a test can ask D1 how it answers the statements below.
 */

/** A grant of any repository that holds its account there, or is on its way to: queued, pending or active. */
export const LIVE: readonly GrantStatus[] = ['queued', 'pending', 'active'];
/** LIVE as SQL, for `status IN ${LIVE_SQL}`. */
export const LIVE_SQL = `(${LIVE.map((status) => `'${status}'`).join(', ')})`;

/**
 * The live grant of a repository that holds an account or an invitation (holders.ts `holderOf`):
 * ?1 the account, ?2 the invitation, ?3 GITHUB_REPO, ?4 the repository asked about, ?5, ?7 and ?6
 * the grant left out (its purchase, seat and version). Each of the first two is an index's look-up (migrations 0028 and 0030): D1
 * counts every row a query reads, and a take-back must not read every live grant.
 */
export const HOLDER_SQL = `SELECT session_id FROM grants
  WHERE status IN ${LIVE_SQL} AND (github_user_id = ?1 OR invitation_id = ?2)
    AND (repository = ?4 OR (repository_key = 'kit' AND ?3 = ?4))
    AND NOT (session_id = ?5 AND seat = ?7 AND version = ?6)
  LIMIT 1`;
