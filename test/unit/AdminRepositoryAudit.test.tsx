import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RepositoryAudit from '../../src/components/screens/Admin/RepositoryAudit';
import {REPOSITORY_FIX_ALL_LIMITS, type RepositoryDifference} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {appConfig} from '../../src/config';
import {EMPTY_WINDOW, NOW, REPOSITORY, REPOSITORY_OWNER, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () =>
  renderWithSite(<RepositoryAudit />, {env: {WORKER_URL: worker().url}, url: '/admin?view=repository'});
const counts = {paid: 412, collaborators: 380, invited: 30};

/** `count` paid buyers off the repository, as the worker lists them. */
const missing = (count: number): RepositoryDifference[] =>
  Array.from({length: count}, (_, i) => ({
    kind: 'paid_missing',
    githubUserId: 100 + i,
    login: `buyer-${i}`,
    on: 'nowhere',
    sessionId: `cs_test_buyer${i}`,
    email: `buyer${i}@example.com`,
  }));

beforeEach(() =>
  worker().reset({
    audit: {
      repository: REPOSITORY,
      key: null,
      extraRepositories: [],
      checkedAt: NOW,
      counts,
      exempt: [REPOSITORY_OWNER, 'ci-bot'],
      invitations: EMPTY_WINDOW,
      fixAllLimits: REPOSITORY_FIX_ALL_LIMITS,
      differences: [
        {
          kind: 'unpaid_on_repository',
          githubUserId: 11,
          login: 'handpicked',
          on: 'collaborator',
          sessionId: null,
          email: null,
        },
        {
          kind: 'paid_missing',
          githubUserId: 22,
          login: 'ada-l',
          on: 'nowhere',
          sessionId: 'cs_test_ada',
          email: 'ada@example.com',
        },
        {
          kind: 'revoked_present',
          githubUserId: 33,
          login: 'bobby',
          on: 'invitation',
          sessionId: 'cs_test_bob',
          email: 'bob@example.com',
        },
      ],
    },
  }),
);

describe('the Repository audit panel', () => {
  it('sums up first, then lists the three kinds of difference, the buyers by e-mail, and names the exempt accounts', async () => {
    show();
    const figures = await screen.findByText('Paid buyers with access');
    expect(figures.closest('dl')).toHaveTextContent(
      'Paid buyers with access412Collaborators380Invited, not accepted yet30Differences3',
    );
    expect(screen.getByText('3 differences need your action:')).toBeInTheDocument();
    expect(screen.getByRole('link', {name: '1 paid, but not on the repository'})).toHaveAttribute(
      'href',
      '#difference-paid_missing',
    );
    expect(screen.getByRole('heading', {name: 'On the repository without a paid purchase (1)'})).toBeInTheDocument();
    expect(screen.getByRole('heading', {name: 'Paid, but not on the repository (1)'})).toBeInTheDocument();
    expect(screen.getByRole('heading', {name: 'Revoked, but still on the repository (1)'})).toBeInTheDocument();
    expect(screen.getByText(/Not compared/)).toHaveTextContent(`@${REPOSITORY_OWNER}, @ci-bot`);
    expect(screen.getByText(REPOSITORY)).toBeInTheDocument();
    expect(screen.getByRole('link', {name: 'bob@example.com'})).toHaveAttribute('href', '/admin?purchase=cs_test_bob');
    // The seller reads e-mails and states, not the worker's ids.
    expect(screen.queryByText(/cs_test_/)).toBeNull();
  });

  it('fixes one difference in one click, once confirmed, and checks again', async () => {
    show();
    await userEvent.click(await screen.findByRole('button', {name: 'Remove @bobby'}));
    const question = screen.getByRole('group', {name: 'Remove @bobby'});
    expect(question).toHaveTextContent(`Are you sure? @bobby is removed from ${REPOSITORY}.`);
    expect(worker().actions()).toEqual([]);
    await userEvent.click(within(question).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Remove @bobby: done.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([['/admin/repository-audit/fix', {kind: 'revoked_present', githubUserId: 33}]]);
    await waitFor(() => expect(screen.queryByRole('button', {name: 'Remove @bobby'})).toBeNull());
    expect(screen.getByRole('button', {name: 'Invite @ada-l'})).toBeInTheDocument();
    expect(worker().requests.filter((seen) => seen.path === '/admin/repository-audit')).toHaveLength(2);
  });

  it('shows five rows of a long group until "Show all", and invites as many at once as the worker can, saying the rest stay listed', async () => {
    // A worker on the Free plan: 50 subrequests a call, so a fix-all invites 7 (the worker says).
    const fixAllLimits = {...REPOSITORY_FIX_ALL_LIMITS, paid_missing: 7};
    worker().reset({
      audit: {
        repository: REPOSITORY,
        key: null,
        extraRepositories: [],
        checkedAt: NOW,
        counts,
        exempt: [],
        differences: missing(53),
        invitations: EMPTY_WINDOW,
        fixAllLimits,
      },
    });
    show();
    const group = (await screen.findByRole('heading', {name: 'Paid, but not on the repository (53)'})).closest(
      'section',
    )!;
    expect(within(group).getAllByRole('row')).toHaveLength(1 + 5);
    await userEvent.click(within(group).getByRole('button', {name: 'Show all 53'}));
    expect(within(group).getAllByRole('row')).toHaveLength(1 + 53);
    await userEvent.click(within(group).getByRole('button', {name: 'Show the first 5'}));
    expect(within(group).getAllByRole('row')).toHaveLength(1 + 5);

    await userEvent.click(within(group).getByRole('button', {name: 'Invite 7 of 53'}));
    const question = within(group).getByRole('group', {name: 'Invite 7 of 53'});
    const rest =
      "The other 46 stay listed: invite them with the same button once this is done. Invitations past GitHub's daily cap wait in the queue.";
    expect(question).toHaveTextContent(
      `Are you sure? The first 7 of these 53 accounts listed here get a new invitation to ${REPOSITORY} for their paid purchase. ` +
        `${rest} Each account is written to the admin log.`,
    );
    expect(worker().actions()).toEqual([]);
    await userEvent.click(within(question).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText(`Invited 7 accounts to the repository. ${rest}`)).toHaveAttribute('role', 'status');
    // The browser names the kind only: the worker finds the accounts.
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([['/admin/repository-audit/fix-all', {kind: 'paid_missing'}]]);
    expect(await screen.findByRole('heading', {name: 'Paid, but not on the repository (46)'})).toBeInTheDocument();
    expect(screen.getByRole('button', {name: 'Invite 7 of 46'})).toBeInTheDocument();
    // Queries by role over 53 rows are slow in jsdom, on a busy machine slower.
  }, 30_000);

  it("shows GitHub's daily limit: the invitations of the last 24 hours, the queue, and when it will be empty", async () => {
    const cap = appConfig.repository.invitationsPerDay;
    const drainsBy = Date.UTC(2026, 5, 4, 9, 30);
    worker().reset({
      audit: {
        repository: REPOSITORY,
        key: null,
        extraRepositories: [],
        checkedAt: NOW,
        counts,
        exempt: [],
        differences: [],
        invitations: {cap, usedLast24h: cap, queued: 7, drainsBy},
        fixAllLimits: REPOSITORY_FIX_ALL_LIMITS,
      },
    });
    show();
    const figures = await screen.findByRole('region', {name: "Invitations and GitHub's daily limit"});
    expect(within(figures).getByText('Invitations in the last 24 hours').nextElementSibling).toHaveTextContent(
      `${cap} of ${cap}`,
    );
    expect(within(figures).getByText('Waiting in the queue').nextElementSibling).toHaveTextContent('7');
    expect(within(figures).getByText('Queue empty by').nextElementSibling).toHaveTextContent('4 Jun 2026, 09:30 UTC');
  });

  it('audits each extra repository of the plans on its own, and fixes there say which repository they are for', async () => {
    const prompts = 'acme/kit-prompts';
    const kit = {
      repository: REPOSITORY,
      key: null,
      checkedAt: NOW,
      counts,
      exempt: [],
      differences: [],
      invitations: EMPTY_WINDOW,
      fixAllLimits: REPOSITORY_FIX_ALL_LIMITS,
    };
    worker().reset({
      audit: {...kit, extraRepositories: [{key: 'prompts', repository: prompts}]},
      extraAudits: {
        prompts: {
          ...kit,
          repository: prompts,
          key: 'prompts',
          extraRepositories: [{key: 'prompts', repository: prompts}],
          differences: [
            {
              kind: 'paid_missing',
              githubUserId: 22,
              login: 'ada-l',
              on: 'nowhere',
              sessionId: 'cs_test_ada',
              email: 'ada@example.com',
            },
            {
              kind: 'paid_missing',
              githubUserId: 23,
              login: 'grace-h',
              on: 'nowhere',
              sessionId: 'cs_test_grace',
              email: 'grace@example.com',
            },
          ],
        },
      },
    });
    show();
    const choice = await screen.findByRole('group', {name: 'Repository to audit'});
    expect(within(choice).getByRole('button', {name: `${appConfig.appName} (the kit)`})).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      await screen.findByText('All in order: the repository holds exactly the paid purchases.'),
    ).toBeInTheDocument();

    await userEvent.click(within(choice).getByRole('button', {name: appConfig.extraRepositories.prompts.name}));
    expect(await screen.findByRole('heading', {name: 'Paid, but not on the repository (2)'})).toBeInTheDocument();
    expect(screen.getByText(prompts)).toBeInTheDocument();
    expect(within(choice).getByRole('button', {name: appConfig.extraRepositories.prompts.name})).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      worker()
        .requests.filter((seen) => seen.path === '/admin/repository-audit')
        .map((seen) => seen.query.get('repository')),
    ).toEqual([null, 'prompts']);

    await userEvent.click(screen.getByRole('button', {name: 'Invite @ada-l'}));
    const question = screen.getByRole('group', {name: 'Invite @ada-l'});
    expect(question).toHaveTextContent(`A new invitation to ${prompts} goes to @ada-l for their paid purchase.`);
    await userEvent.click(within(question).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Invite @ada-l: done.')).toHaveAttribute('role', 'status');
    await userEvent.click(await screen.findByRole('button', {name: 'Invite all 1'}));
    await userEvent.click(
      within(screen.getByRole('group', {name: 'Invite all 1'})).getByRole('button', {name: 'Confirm'}),
    );
    expect(await screen.findByText('Invited 1 account to the repository.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([
      ['/admin/repository-audit/fix', {kind: 'paid_missing', githubUserId: 22, repository: 'prompts'}],
      ['/admin/repository-audit/fix-all', {kind: 'paid_missing', repository: 'prompts'}],
    ]);
  });

  it('says when the repository matches the paid purchases', async () => {
    worker().reset({
      audit: {
        repository: REPOSITORY,
        key: null,
        extraRepositories: [],
        checkedAt: NOW,
        counts,
        exempt: [],
        differences: [],
        invitations: EMPTY_WINDOW,
        fixAllLimits: REPOSITORY_FIX_ALL_LIMITS,
      },
    });
    show();
    expect(
      await screen.findByText('All in order: the repository holds exactly the paid purchases.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/Not compared/)).toHaveTextContent('nobody');
    expect(screen.queryByRole('heading', {level: 3})).toBeNull();
  });
});
