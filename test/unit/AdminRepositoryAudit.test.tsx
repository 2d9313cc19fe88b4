import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RepositoryAudit from '../../src/components/screens/Admin/RepositoryAudit';
import {renderWithSite} from '../support/render';
import {NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () => renderWithSite(<RepositoryAudit />, {env: {WORKER_URL: worker().url}, url: '/admin?view=repository'});

beforeEach(() =>
  worker().reset({
    audit: {
      repository: 'slipway/kit',
      checkedAt: NOW,
      exempt: ['slipway-owner', 'ci-bot'],
      differences: [
        {kind: 'unpaid_on_repository', githubUserId: 11, login: 'handpicked', on: 'collaborator', sessionId: null},
        {kind: 'paid_missing', githubUserId: 22, login: 'ada-l', on: 'nowhere', sessionId: 'cs_test_ada'},
        {kind: 'revoked_present', githubUserId: 33, login: 'bobby', on: 'invitation', sessionId: 'cs_test_bob'},
      ],
    },
  }),
);

describe('the Repository audit panel', () => {
  it('lists the three kinds of difference and names the exempt accounts', async () => {
    show();
    expect(await screen.findByRole('heading', {name: 'On the repository without a paid purchase (1)'})).toBeInTheDocument();
    expect(screen.getByRole('heading', {name: 'Paid, but not on the repository (1)'})).toBeInTheDocument();
    expect(screen.getByRole('heading', {name: 'Revoked, but still on the repository (1)'})).toBeInTheDocument();
    expect(screen.getByText(/Left out of the comparison/)).toHaveTextContent('@slipway-owner, @ci-bot');
    expect(screen.getByText('slipway/kit')).toBeInTheDocument();
    expect(screen.getByRole('link', {name: 'cs_test_bob'})).toHaveAttribute('href', '/admin?purchase=cs_test_bob');
  });

  it('fixes one difference in one click, once confirmed, and checks again', async () => {
    show();
    await userEvent.click(await screen.findByRole('button', {name: 'Remove @bobby'}));
    const question = screen.getByRole('group', {name: 'Remove @bobby'});
    expect(question).toHaveTextContent('Are you sure? @bobby is removed from slipway/kit.');
    expect(worker().actions()).toEqual([]);
    await userEvent.click(within(question).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Remove @bobby: done.')).toHaveAttribute('role', 'status');
    expect(worker().actions().map((seen) => [seen.path, seen.body])).toEqual([
      ['/admin/repository-audit/fix', {kind: 'revoked_present', githubUserId: 33}],
    ]);
    await waitFor(() => expect(screen.queryByRole('button', {name: 'Remove @bobby'})).toBeNull());
    expect(screen.getByRole('button', {name: 'Invite @ada-l'})).toBeInTheDocument();
    expect(worker().requests.filter((seen) => seen.path === '/admin/repository-audit')).toHaveLength(2);
  });

  it('says when the repository matches the paid purchases', async () => {
    worker().reset({audit: {repository: 'slipway/kit', checkedAt: NOW, exempt: [], differences: []}});
    show();
    expect(await screen.findByText('No differences: the repository holds exactly the paid purchases.')).toBeInTheDocument();
    expect(screen.getByText(/Left out of the comparison/)).toHaveTextContent('nobody');
  });
});
