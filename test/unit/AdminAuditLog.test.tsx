import React from 'react';
import {screen, within} from '@testing-library/react';
import AuditLog from '../../src/components/screens/Admin/AuditLog';
import {renderWithSite} from '../support/render';
import {ADMIN_EMAIL, NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();

describe('the Admin log panel', () => {
  it('shows who did what, when, how it ended, on which purchase, newest first', async () => {
    worker().reset({
      log: [
        {
          id: 2,
          at: NOW,
          admin: ADMIN_EMAIL,
          action: 'grant',
          outcome: 'done',
          sessionId: 'cs_test_ada',
          detail: '@ada-l',
        },
        {
          id: 1,
          at: NOW - 60_000,
          admin: 'other@slipway.dev',
          action: 'revoke',
          outcome: 'done',
          sessionId: 'cs_test_ada',
          detail: null,
        },
        {
          id: 3,
          at: NOW + 60_000,
          admin: ADMIN_EMAIL,
          action: 'repository_fix',
          outcome: 'failed',
          sessionId: null,
          detail: 'Failed: GitHub is not answering',
        },
      ],
    });
    renderWithSite(<AuditLog />, {env: {WORKER_URL: worker().url}, url: '/admin?view=log'});
    const table = await screen.findByRole('table', {name: 'What the admins did, newest first'});
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      [
        '30 Jun 2026, 12:01 UTC',
        ADMIN_EMAIL,
        'Fixed a repository difference',
        'Failed',
        '—',
        'Failed: GitHub is not answering',
      ],
      ['30 Jun 2026, 12:00 UTC', ADMIN_EMAIL, 'Granted access', 'Done', 'cs_test_ada', '@ada-l'],
      ['30 Jun 2026, 11:59 UTC', 'other@slipway.dev', 'Revoked access', 'Done', 'cs_test_ada', '—'],
    ]);
  });

  it('says when the log is empty', async () => {
    renderWithSite(<AuditLog />, {env: {WORKER_URL: worker().url}, url: '/admin?view=log'});
    expect(await screen.findByText('No admin has done anything yet.')).toBeInTheDocument();
  });
});
