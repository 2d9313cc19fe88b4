/**
 * @jest-environment node
 *
 * `npm run preflight`'s GitHub lines, asked of the GitHub stand-in (GitHub's recorded answers)
 * with @octokit/rest: one misconfiguration per test.
 */
import {FIXTURE_REPO} from '../../../scripts/local/githubApi';
import {checkGitHub, USER_INVITATIONS_PER_DAY} from '../../../scripts/preflight/github';
import {linesOf, type Services, startServices} from './readyDeploy';

let services: Services;
beforeEach(async () => {
  services = await startServices();
});
afterEach(() => services.close());

const check = (fields: {token?: string; repo?: string; permission?: string} = {}) =>
  checkGitHub({
    token: 'github_pat_preflight',
    repo: FIXTURE_REPO,
    permission: 'pull',
    apiUrl: services.github.url,
    env: 'site',
    ...fields,
  });

it('passes a working token that administers a private repository of an organization', async () => {
  const lines = await check();
  expect(linesOf(lines, 'fail')).toEqual([]);
  expect(linesOf(lines, 'warn')).toEqual([]);
  expect(lines).toContainEqual({
    status: 'ok',
    label: expect.stringContaining(`the token works and reads ${FIXTURE_REPO}`),
  });
  expect(lines).toContainEqual({status: 'ok', label: expect.stringContaining('owned by the organization')});
  // Buyers are outside collaborators: the organization's repository is capped too.
  expect(lines).toContainEqual({
    status: 'ok',
    label: expect.stringContaining(`capped at ${USER_INVITATIONS_PER_DAY} invitations per repository per 24 hours`),
  });
});

it('fails a token GitHub refuses', async () => {
  services.github.failNext(`GET /repos/${FIXTURE_REPO}`, {status: 401, body: {message: 'Bad credentials'}});
  expect(await check()).toEqual([
    {
      status: 'fail',
      label: expect.stringContaining('the token is refused (Bad credentials'),
      fix: expect.stringContaining('wrangler secret put GITHUB_TOKEN --env site'),
    },
  ]);
});

it('fails a repository the token cannot find', async () => {
  expect(linesOf(await check({repo: 'someone/elsewhere'}), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('someone/elsewhere is not found with this token (404)')}),
  ]);
});

it('fails a GITHUB_REPO that is not owner/name', async () => {
  expect(linesOf(await check({repo: 'just-a-name'}), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('"just-a-name", not owner/name')}),
  ]);
});

it('fails a public repository: anyone could read what buyers pay for', async () => {
  services.github.repository.private = false;
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`${FIXTURE_REPO} is public`),
      fix: expect.stringContaining('Change visibility'),
    }),
  ]);
});

it('fails a token that may not manage collaborators', async () => {
  services.github.repository.permissions = {admin: false, maintain: false, push: true, triage: true, pull: true};
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('cannot invite or remove collaborators'),
      fix: expect.stringContaining('Administration: read and write'),
    }),
  ]);
});

it("checks that the token can read the code, for buyers' downloads", async () => {
  expect(await check()).toContainEqual({
    status: 'ok',
    label: expect.stringContaining(`the token can read the code of ${FIXTURE_REPO}`),
  });
});

it("fails a token that cannot read the code: buyers' downloads would fail", async () => {
  services.github.failNext(`GET /repos/${FIXTURE_REPO}/zipball`, {
    status: 403,
    body: {message: 'Resource not accessible by personal access token'},
  });
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(
        `the token cannot read the code of ${FIXTURE_REPO} (Resource not accessible by personal access token`,
      ),
      fix: expect.stringContaining('Contents: Read-only'),
    }),
  ]);
});

it("warns of a personal account's daily invitation limit", async () => {
  services.github.repository.owner.type = 'User';
  const lines = await check();
  expect(linesOf(lines, 'fail')).toEqual([]);
  expect(linesOf(lines, 'warn')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`at most ${USER_INVITATIONS_PER_DAY} invitations per repository per 24 hours`),
    }),
  ]);
});

it('warns when invitations grant more than reading', async () => {
  expect(linesOf(await check({permission: 'push'}), 'warn')).toEqual([
    expect.objectContaining({label: expect.stringContaining('invitations grant push')}),
  ]);
});
