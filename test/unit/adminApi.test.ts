import {ApiError} from '../../src/lib/api';
import {createAdminApi, isNotAdmin} from '../../src/lib/adminApi';
import {NOT_AN_ADMIN, purchase, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();

describe('the console’s client', () => {
  it('reads each endpoint at its contract path, with the search and the page in the query', async () => {
    worker().reset({purchases: [purchase({sessionId: 'cs_test_a/b?'})]});
    const api = createAdminApi({baseUrl: worker().url});
    await api.purchases({q: '  ada ', page: 2});
    await api.purchases({q: '   '});
    await api.purchase('cs_test_a/b?');
    await api.leads(3);
    await api.auditLog();
    expect(worker().requests.map((seen) => `${seen.path}?${seen.query}`)).toEqual([
      '/admin/purchases?q=ada&page=2',
      '/admin/purchases?',
      '/admin/purchases/cs_test_a%2Fb%3F?',
      '/admin/leads?page=3',
      '/admin/audit-log?page=1',
    ]);
  });

  it('sends the admin’s ID token, and one fresh token after TOKEN_EXPIRED', async () => {
    const tokens: boolean[] = [];
    const api = createAdminApi({
      baseUrl: worker().url,
      idToken: async (refresh) => {
        tokens.push(refresh);
        return refresh ? 'fresh' : 'stale';
      },
    });
    worker().refuse('/admin/sales', 401, {error: 'Your sign-in has expired.', code: 'TOKEN_EXPIRED'});
    await expect(api.sales()).rejects.toMatchObject({status: 401, code: 'TOKEN_EXPIRED'});
    expect(tokens).toEqual([false, true]);
    expect(worker().requests.map((seen) => seen.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
  });

  it('fetches the CSV with the token and answers it as a Blob', async () => {
    worker().reset({leads: [{email: 'lead@example.com', createdAt: 0}]});
    const blob = await createAdminApi({baseUrl: worker().url, idToken: async () => 'admin-token'}).leadsCsv();
    expect(await blob.text()).toBe('email,created_at\nlead@example.com,1970-01-01T00:00:00.000Z\n');
    expect(worker().requests.map((seen) => [seen.path, seen.authorization])).toEqual([
      ['/admin/leads.csv', 'Bearer admin-token'],
    ]);
  });

  it('posts each action with its body', async () => {
    const api = createAdminApi({baseUrl: worker().url});
    await api.grant('cs_test_ada', 'octocat');
    await api.repositoryFix({kind: 'paid_missing', githubUserId: 5});
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([
      ['/admin/purchases/cs_test_ada/grant', {username: 'octocat'}],
      ['/admin/repository-audit/fix', {kind: 'paid_missing', githubUserId: 5}],
    ]);
  });

  it('tells a 403 ADMIN_ONLY from any other failure', async () => {
    worker().refuse('*', 403, NOT_AN_ADMIN);
    const refused = await createAdminApi({baseUrl: worker().url})
      .jobs()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(isNotAdmin(refused)).toBe(true);
    expect(isNotAdmin(new ApiError('Forbidden', 403))).toBe(false);
    expect(isNotAdmin(new ApiError('Down', 503, 'UPSTREAM_UNAVAILABLE'))).toBe(false);
  });
});
