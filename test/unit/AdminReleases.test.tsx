import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {AdminRelease} from '../../src/config/api';
import Releases from '../../src/components/screens/Admin/Releases';
import {renderWithSite} from '../support/render';
import {NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () => renderWithSite(<Releases />, {env: {WORKER_URL: worker().url}, url: '/admin?view=releases'});

function release(overrides: Partial<AdminRelease>): AdminRelease {
  return {
    id: 101,
    tag: 'v2.0.0',
    name: 'Version 2',
    publishedAt: NOW,
    recipients: 120,
    emailed: 117,
    delivered: 110,
    failed: 2,
    waiting: 1,
    unsubscribed: 3,
    failures: [
      {email: 'typo@example', reason: "'to' parameter is not a valid address. please check documentation"},
      {email: 'gone@example.com', reason: '550 5.1.1 The email account that you tried to reach does not exist'},
    ],
    ...overrides,
  };
}

describe('the Releases panel', () => {
  it('lists each release with e-mailed, delivered, failed (with the reasons), waiting and unsubscribed', async () => {
    worker().reset({
      releases: [
        release({}),
        release({
          id: 100,
          tag: 'v1.0.0',
          name: 'Version 1',
          publishedAt: NOW - 86_400_000 * 40,
          failed: 0,
          failures: [],
          waiting: 0,
        }),
      ],
    });
    show();
    const table = await screen.findByRole('table', {name: 'Releases and their e-mails'});
    const [, first, second] = within(table).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(0, 7),
    ).toEqual(['Version 2 v2.0.0', '30 Jun 2026', '117', '110', expect.stringMatching(/^2/), '1', '3']);
    expect(first).toHaveClass('flagged');
    await userEvent.click(within(first!).getByText('2'));
    expect(within(first!).getByText(/gone@example.com: 550 5.1.1/)).toBeVisible();
    expect(
      within(second!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(0, 2),
    ).toEqual(['Version 1 v1.0.0', '21 May 2026']);
    expect(within(second!).queryByRole('button')).toBeNull();
  });

  it('sends a release again to those who failed only after Confirm, then reloads', async () => {
    worker().reset({releases: [release({})]});
    show();
    await userEvent.click(await screen.findByRole('button', {name: 'Send again to the 2 that failed'}));
    expect(worker().actions()).toEqual([]);
    const ask = screen.getByRole('group', {name: 'Send again to the 2 that failed'});
    expect(ask).toHaveTextContent('Version 2 is e-mailed again to the 2 addresses whose e-mail failed');
    await userEvent.click(within(ask).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Version 2 is being sent again to 2 addresses.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.path),
    ).toEqual(['/admin/releases/101/resend']);
    // Reloaded: nothing failed now, and the two wait with the one before them.
    await waitFor(() => expect(screen.queryByRole('button', {name: /Send again/})).toBeNull());
    const [, row] = screen.getAllByRole('row');
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(4, 6),
    ).toEqual(['0', '3']);
  });

  it('shows the worker’s refusal', async () => {
    worker().reset({releases: [release({})]});
    worker().refuse('/admin/releases/:releaseId/resend', 409, {
      error: 'This release is already being sent again to those who failed: wait for it to finish.',
      code: 'CONFLICT',
    });
    show();
    await userEvent.click(await screen.findByRole('button', {name: 'Send again to the 2 that failed'}));
    await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText(/already being sent again/)).toHaveAttribute('role', 'alert');
  });

  it('says so when no release was announced yet', async () => {
    worker().reset({releases: []});
    show();
    expect(
      await screen.findByText('No release announced yet: publish one on GitHub and it shows here.'),
    ).toBeInTheDocument();
  });
});
