import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import {AdminConsole} from '../../src/components/screens/Admin';
import {appConfig, ROUTES} from '../../src/config';
import {renderWithSite} from '../support/render';
import {ADMIN_EMAIL, NOT_AN_ADMIN, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const admin = {uid: 'uid-admin', email: ADMIN_EMAIL, displayName: null, photoURL: null};
const show = (url: string, user = admin) =>
  renderWithSite(<AdminConsole user={user} />, {env: {WORKER_URL: worker().url}, url});

/** Waits until the panel has its answer, then says which endpoints were asked. */
async function asked(): Promise<string[]> {
  // A loaded machine (the full suite on two cores) can take longer than waitFor's 1 s default.
  await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull(), {timeout: 10_000});
  return worker().requests.map((seen) => seen.path);
}

describe('the seller’s console', () => {
  it('opens on Sales, with a link to every panel and the current one marked', async () => {
    show('/admin');
    expect(await screen.findByRole('heading', {name: 'Sales'})).toBeInTheDocument();
    const nav = screen.getByRole('navigation', {name: 'Console'});
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Sales', '/admin'],
      ['Purchases', '/admin?view=purchases'],
      ['Failures', '/admin?view=failures'],
      ['Releases', '/admin?view=releases'],
      ['Repository', '/admin?view=repository'],
      ['Buyer refunds', '/admin?view=selfRefunds'],
      ['Codes', '/admin?view=codes'],
      ['Affiliates', '/admin?view=affiliates'],
      ['Leads', '/admin?view=leads'],
      ['Admin log', '/admin?view=log'],
    ]);
    expect(within(nav).getByRole('link', {name: 'Sales'})).toHaveAttribute('aria-current', 'page');
    // Its own frame: the way back to the site and to the docs, beside the views.
    const frame = screen.getByRole('banner');
    expect(within(frame).getByRole('link', {name: `Back to ${appConfig.appName}`})).toHaveAttribute(
      'href',
      ROUTES.home,
    );
    expect(within(frame).getByRole('link', {name: 'Docs'})).toHaveAttribute('href', ROUTES.docs);
    // Sales, and the funnel under its cards.
    expect(await asked()).toEqual(['/admin/funnel', '/admin/sales']);
  });

  it.each([
    ['/admin?view=purchases', 'Purchases', '/admin/purchases'],
    ['/admin?view=failures', 'Failures', '/admin/jobs'],
    ['/admin?view=releases', 'Releases', '/admin/releases'],
    ['/admin?view=repository', 'Repository audit', '/admin/repository-audit'],
    ['/admin?view=selfRefunds', 'Buyer refunds', '/admin/self-refunds'],
    ['/admin?view=codes', 'Launch codes', '/admin/codes'],
    ['/admin?view=affiliates', 'Affiliates', '/admin/affiliates'],
    ['/admin?view=leads', 'Leads', '/admin/leads'],
    ['/admin?view=log', 'Admin log', '/admin/audit-log'],
    ['/admin?purchase=cs_test_ada', 'Purchase', '/admin/purchases/cs_test_ada'],
    // The new-sale e-mail links to a search.
    ['/admin?q=ada%40example.com', 'Purchases', '/admin/purchases'],
  ])('shows the panel the address names: %s', async (url, heading, path) => {
    show(url);
    expect(await screen.findByRole('heading', {level: 2, name: heading})).toBeInTheDocument();
    expect(await asked()).toEqual([path]);
  });

  it.each(['/admin', '/admin?purchase=cs_test_ada', '/admin?view=leads'])(
    'shows a signed-in account the worker refuses (403 ADMIN_ONLY) that it is not an admin, and no data: %s',
    async (url) => {
      worker().refuse('*', 403, NOT_AN_ADMIN);
      show(url, {uid: 'uid-buyer', email: 'buyer@example.com', displayName: null, photoURL: null});
      expect(await screen.findByRole('heading', {level: 1, name: 'This account is not an admin'})).toBeInTheDocument();
      expect(screen.getByText('buyer@example.com')).toBeInTheDocument();
      expect(screen.queryByRole('navigation', {name: 'Console'})).toBeNull();
      expect(screen.queryByRole('heading', {level: 2})).toBeNull();
      expect(screen.queryByRole('table')).toBeNull();
    },
  );

  it('keeps to the panel and its Try again when the worker fails for another reason', async () => {
    worker().refuse('*', 503, {error: 'The database is not answering.', code: 'UPSTREAM_UNAVAILABLE'});
    show('/admin');
    // The sales and the funnel under them, each with the worker's words.
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      expect.stringContaining('The database is not answering.'),
      expect.stringContaining('The database is not answering.'),
    ]);
    expect(screen.getByRole('navigation', {name: 'Console'})).toBeInTheDocument();
  });
});
