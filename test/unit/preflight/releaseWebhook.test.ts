/**
 * @jest-environment node
 *
 * `npm run preflight`'s line for GitHub's release webhook, asked of the GitHub stand-in with
 * @octokit/rest: one misconfiguration per test, against the ready deploy of ./readyDeploy.
 */
import {FIXTURE_REPO, newRepositoryHook} from '../../../scripts/local/githubApi';
import {
  checkReleaseWebhook,
  githubWebhookUrl,
  type ReleaseWebhookInput,
} from '../../../scripts/preflight/releaseWebhook';
import {linesOf, type Services, SITE_URL, startServices} from './readyDeploy';

let services: Services;
beforeEach(async () => {
  services = await startServices();
});
afterEach(() => services.close());

const URL_ = githubWebhookUrl(SITE_URL);
const check = (fields: Partial<ReleaseWebhookInput> = {}) =>
  checkReleaseWebhook({
    token: 'github_pat_preflight',
    repo: FIXTURE_REPO,
    webhookSecret: 'github-webhook-secret',
    unsubscribeSecret: 'unsubscribe-secret',
    siteUrl: SITE_URL,
    apiUrl: services.github.url,
    env: 'site',
    ...fields,
  });
/** The ready deploy's webhook, changed. */
const hook = () => services.github.hooks[0]!;

it('passes an active webhook that sends release events to the worker, as JSON', async () => {
  expect(await check()).toEqual([
    {status: 'ok', label: `GitHub: an active webhook sends release events to ${URL_}, as JSON`},
  ]);
  expect(services.github.requests).toContain(`GET /repos/${FIXTURE_REPO}/hooks`);
});

it('warns, without asking GitHub, when GITHUB_WEBHOOK_SECRET is not set: releases are not announced', async () => {
  expect(await check({webhookSecret: undefined})).toEqual([
    {
      status: 'warn',
      label: expect.stringContaining('GITHUB_WEBHOOK_SECRET is not set: releases will not be announced'),
      fix: expect.stringContaining('wrangler secret put GITHUB_WEBHOOK_SECRET --env site'),
    },
  ]);
  expect(services.github.requests).not.toContain(`GET /repos/${FIXTURE_REPO}/hooks`);
});

it('fails when no webhook sends to the worker, saying where to add it', async () => {
  services.github.hooks.length = 0;
  expect(linesOf(await check(), 'fail')).toEqual([
    {
      status: 'fail',
      label: `GitHub: no webhook of ${FIXTURE_REPO} sends to ${URL_}: releases will not be announced`,
      fix: expect.stringMatching(
        new RegExp(
          `^https://github\\.com/${FIXTURE_REPO}/settings/hooks/new: Payload URL ${URL_}, Content type application/json, .*Releases`,
        ),
      ),
    },
  ]);
});

it('fails a webhook that sends to another address, naming it', async () => {
  hook().config.url = 'https://old-domain.example/api/webhook/github';
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(
        `sends to ${URL_} (its webhooks send to https://old-domain.example/api/webhook/github)`,
      ),
      fix: expect.stringContaining(`Payload URL ${URL_}`),
    }),
  ]);
});

it('fails an inactive webhook', async () => {
  services.github.hooks[0] = newRepositoryHook({url: URL_, active: false});
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: `GitHub: the webhook to ${URL_}: it is inactive`,
      fix: expect.stringContaining(`https://github.com/${FIXTURE_REPO}/settings/hooks/${hook().id}: `),
    }),
  ]);
});

it('fails a webhook that does not send release events', async () => {
  services.github.hooks[0] = newRepositoryHook({url: URL_, events: ['push']});
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: `GitHub: the webhook to ${URL_}: it does not send release events (only push)`,
      fix: expect.stringContaining('Releases only'),
    }),
  ]);
});

it('fails a webhook that sends form data: the worker reads JSON', async () => {
  services.github.hooks[0] = newRepositoryHook({url: URL_, contentType: 'form'});
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: `GitHub: the webhook to ${URL_}: it sends form, not json`,
      fix: expect.stringContaining('Content type application/json'),
    }),
  ]);
});

it('fails a token without the Webhooks permission, naming the permission to add', async () => {
  // GitHub's answer to a fine-grained token without it; the header names the permission wanted.
  services.github.failNext(`GET /repos/${FIXTURE_REPO}/hooks`, {
    status: 403,
    headers: {'x-accepted-github-permissions': 'repository_hooks=read'},
    body: {
      message: 'Resource not accessible by personal access token',
      documentation_url: 'https://docs.github.com/rest/repos/webhooks#list-repository-webhooks',
      status: '403',
    },
  });
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(
        `the token may not read the webhooks of ${FIXTURE_REPO} (403: Resource not accessible by personal access token`,
      ),
      fix: expect.stringContaining('Webhooks: Read-only'),
    }),
  ]);
});

it('fails a release webhook the worker would refuse: UNSUBSCRIBE_SECRET is not set', async () => {
  expect(linesOf(await check({unsubscribeSecret: undefined}), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('UNSUBSCRIBE_SECRET is not set: the worker refuses every release delivery'),
      fix: expect.stringContaining('wrangler secret put UNSUBSCRIBE_SECRET --env site'),
    }),
  ]);
});
