import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {AdminJob} from '../../src/config/api';
import Failures from '../../src/components/screens/Admin/Failures';
import {renderWithSite} from '../support/render';
import {NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () => renderWithSite(<Failures />, {env: {WORKER_URL: worker().url}, url: '/admin?view=failures'});

function job(overrides: Partial<AdminJob>): AdminJob {
  return {
    id: 1,
    kind: 'mail',
    state: 'retrying',
    attempts: 2,
    lastError: 'Mailgun answered 503',
    runAfter: NOW + 600_000,
    updatedAt: NOW,
    sessionId: null,
    removalFailed: false,
    ...overrides,
  };
}

describe('the Failures panel', () => {
  it('lists the failed and retrying jobs with their last error, a removal that failed for good first and flagged', async () => {
    worker().reset({
      jobs: [
        job({id: 7}),
        job({
          id: 9,
          kind: 'github-remove',
          state: 'failed',
          attempts: 8,
          lastError: 'GitHub answered 500',
          sessionId: 'cs_test_bob',
          removalFailed: true,
        }),
      ],
    });
    show();
    const alarm = await screen.findByRole('alert');
    expect(alarm).toHaveTextContent('A removal failed for good: a refunded or disputed buyer may still be on GitHub.');
    const [, first, second] = screen.getAllByRole('row');
    expect(first).toHaveClass('flagged');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(0, 5),
    ).toEqual(['GitHub removal Removal failed for good', 'Failed', '8', 'GitHub answered 500', 'cs_test_bob']);
    expect(within(first!).getByRole('link', {name: 'cs_test_bob'})).toHaveAttribute(
      'href',
      '/admin?purchase=cs_test_bob',
    );
    expect(second).not.toHaveClass('flagged');
    expect(
      within(second!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(0, 4),
    ).toEqual(['E-mail', 'Retries at 30 Jun 2026, 12:10 UTC', '2', 'Mailgun answered 503']);
  });

  it('retries a job and reloads the list', async () => {
    worker().reset({jobs: [job({id: 7})]});
    show();
    await userEvent.click(await screen.findByRole('button', {name: 'Retry E-mail job 7'}));
    expect(await screen.findByText('E-mail job 7 ran again.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.path),
    ).toEqual(['/admin/jobs/7/retry']);
    expect(await screen.findByText('Nothing failed: every e-mail and GitHub job went through.')).toBeInTheDocument();
  });

  it('shows the worker’s error when a retry is refused', async () => {
    worker().reset({jobs: [job({id: 7})]});
    worker().refuse('/admin/jobs/:jobId/retry', 409, {error: 'That job is already running.', code: 'CONFLICT'});
    show();
    await userEvent.click(await screen.findByRole('button', {name: 'Retry E-mail job 7'}));
    expect(await screen.findByText('That job is already running.')).toHaveAttribute('role', 'alert');
  });
});
