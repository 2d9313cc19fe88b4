import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AccessStatusPanel from '../../src/components/screens/Dashboard/AccessStatusPanel';
import {appConfig} from '../../src/config';
import {API_PATHS, type AccessStatus} from '../../src/config/api';
import {useJsonWorker} from '../support/jsonWorker';
import {renderWithSite} from '../support/render';
import ExtraRepositories from '../../src/components/screens/Dashboard/ExtraRepositories';

function renderPanel(access: AccessStatus) {
  renderWithSite(<AccessStatusPanel access={access} onChanged={() => {}} />);
  return screen.getByRole('region', {name: 'Repository access'});
}

describe('the access panel', () => {
  it.each([
    [2, 'You can change the GitHub account 2 more times.'],
    [1, 'You can change the GitHub account once more.'],
  ])('with %d account changes left, says how many', (left, text) => {
    const panel = renderPanel({
      status: 'active',
      hasPaid: true,
      username: 'octocat',
      usernameChanges: 3 - left,
      usernameChangesLeft: left,
    });
    expect(within(panel).getByRole('heading', {name: 'Access active'})).toBeInTheDocument();
    expect(within(panel).getByText(text)).toBeInTheDocument();
  });

  it('with no account change left, sends the buyer to support', () => {
    const {email: supportEmail} = appConfig.support;
    const panel = renderPanel({
      status: 'pending',
      hasPaid: true,
      username: 'octocat',
      usernameChanges: 3,
      usernameChangesLeft: 0,
    });
    expect(panel).toHaveTextContent(`This purchase cannot change its GitHub account again; write to ${supportEmail}.`);
    expect(within(panel).getByRole('link', {name: supportEmail})).toHaveAttribute('href', `mailto:${supportEmail}`);
  });

  it('says nothing about account changes when the worker does not count them', () => {
    const panel = renderPanel({status: 'active', hasPaid: true, username: 'octocat'});
    expect(within(panel).queryByText(/change the GitHub account/)).toBeNull();
  });

  it.each(['revoked', 'removal_failed'] as const)(
    'shows %s access as removed, with no account left to change',
    (status) => {
      const panel = renderPanel({
        status,
        hasPaid: false,
        username: 'octocat',
        usernameChangesLeft: 2,
        detail: 'The GitHub account could not be removed',
      });
      expect(within(panel).getByRole('heading', {name: 'Access revoked'})).toBeInTheDocument();
      expect(
        within(panel).getByText('This purchase was refunded or disputed, so repository access was removed.'),
      ).toBeInTheDocument();
      expect(within(panel).queryByText(/GitHub account could not/)).toBeNull();
      expect(within(panel).queryByText(/change the GitHub account/)).toBeNull();
    },
  );

  it('says when the seller revoked the access (not a refund), and whom to write to', () => {
    const panel = renderPanel({
      status: 'revoked',
      hasPaid: true,
      username: 'octocat',
      usernameChangesLeft: 2,
      revokedBySeller: true,
    });
    expect(within(panel).getByRole('heading', {name: 'Access revoked'})).toBeInTheDocument();
    expect(
      within(panel).getByText(
        `The seller revoked this purchase's access to the code. Write to ${appConfig.support.email} if you think this is a mistake.`,
      ),
    ).toBeInTheDocument();
    expect(within(panel).queryByText(/refunded or disputed/)).toBeNull();
  });

  it("links active access to the repository the worker invited to, at the page the worker names (local mode's is the stand-in's)", () => {
    const panel = renderPanel({
      status: 'active',
      hasPaid: true,
      username: 'octocat',
      repository: 'acme/kit-private',
      repositoryUrl: 'http://127.0.0.1:4567/acme/kit-private',
    });
    expect(within(panel).getByRole('link', {name: 'Open the repository'})).toHaveAttribute(
      'href',
      'http://127.0.0.1:4567/acme/kit-private',
    );
  });

  it("tells a buyer waiting for GitHub's daily limit their place in line and when the invitation is expected", () => {
    const expectedAt = Date.UTC(2030, 0, 15, 10, 0);
    const panel = renderPanel({status: 'queued', hasPaid: true, username: 'octocat', queue: {position: 3, expectedAt}});
    expect(within(panel).getByRole('heading', {name: 'Invitation queued: number 3 in line'})).toBeInTheDocument();
    const local = new Intl.DateTimeFormat('en-GB', {dateStyle: 'medium', timeStyle: 'short'}).format(expectedAt);
    expect(panel).toHaveTextContent(
      `The invitation for @octocat is expected around ${local}; we e-mail you when it goes out.`,
    );
  });

  it('says a queued invitation without a place waits only for GitHub to answer', () => {
    const panel = renderPanel({status: 'queued', hasPaid: true, username: 'octocat'});
    expect(within(panel).getByRole('heading', {name: 'Invitation queued'})).toBeInTheDocument();
    expect(within(panel).queryByText(/in line/)).toBeNull();
  });

  it('offers no repository link when the worker did not name one', () => {
    const panel = renderPanel({status: 'active', hasPaid: true, username: 'octocat'});
    expect(within(panel).queryByRole('link', {name: 'Open the repository'})).toBeNull();
  });

  it('lists each extra repository of the plan with its state: invited, active, waiting for the cap, not set up', () => {
    const {name} = appConfig.extraRepositories.prompts;
    const extras = (entry: NonNullable<AccessStatus['extraRepositories']>[number]) =>
      within(
        renderPanel({status: 'pending', hasPaid: true, username: 'octocat', extraRepositories: [entry]}),
      ).getByRole('region', {name: 'More repositories in your plan'});
    expect(
      extras({key: 'prompts', repository: 'slipway/prompts', status: 'pending', username: 'octocat'}),
    ).toHaveTextContent(
      `${name} (${appConfig.extraRepositories.prompts.holds}): Invitation pending. An invitation for @octocat is waiting.`,
    );
    document.body.innerHTML = '';
    const active = extras({
      key: 'prompts',
      repository: 'slipway/prompts',
      repositoryUrl: 'https://github.com/slipway/prompts',
      status: 'active',
      username: 'octocat',
    });
    expect(active).toHaveTextContent(`Access active. @octocat can read ${name}.`);
    expect(within(active).getByRole('link', {name: `Open ${name}`})).toHaveAttribute(
      'href',
      'https://github.com/slipway/prompts',
    );
    document.body.innerHTML = '';
    // Its place in that repository's line and when it is expected, as the kit's queued invitation says.
    const queued = extras({
      key: 'prompts',
      repository: 'slipway/prompts',
      status: 'queued',
      username: 'octocat',
      queue: {position: 3, expectedAt: Date.UTC(2099, 0, 2, 9, 30)},
    });
    expect(queued).toHaveTextContent('Invitation queued: number 3 in line.');
    expect(queued).toHaveTextContent(
      "GitHub lets a repository send only so many invitations a day, and today's are used up.",
    );
    // Only the kit's queued invitation is e-mailed when it goes out: an extra repository's promises no e-mail.
    expect(queued).not.toHaveTextContent('we e-mail you');
    expect(queued).toHaveTextContent(/The invitation for @octocat is expected around 2 Jan 2099, \d\d:\d\d/);
    document.body.innerHTML = '';
    expect(extras({key: 'prompts', status: 'not_configured'})).toHaveTextContent(
      'Not available yet. The seller has not set up this repository.',
    );
  });

  it.each([
    ['pending', {}],
    ['pending', {expired: true}],
    ['failed', {detail: 'GitHub user ghost no longer exists'}],
  ] as const)('says a %s grant in the same words for the kit and for an extra repository', (status, more) => {
    const grant = {status, username: 'octocat', ...more};
    const panel = renderPanel({
      ...grant,
      hasPaid: true,
      extraRepositories: [{key: 'prompts', repository: 'slipway/prompts', ...grant}],
    });
    const title = within(panel).getByRole('heading', {level: 2}).textContent!;
    const text = panel.querySelector('p')!.textContent!;
    const extra = within(panel).getByRole('region', {name: 'More repositories in your plan'});
    // The kit's seat may try another account; an extra repository follows the seat's.
    expect(extra).toHaveTextContent(
      `${title}. ${text.replace('Try another username or contact support.', 'Contact support.')}`,
    );
  });

  describe("an extra repository's code, downloaded at once", () => {
    const worker = useJsonWorker();
    const {name} = appConfig.extraRepositories.prompts;
    const entry = {
      key: 'prompts',
      repository: 'slipway/prompts',
      status: 'queued',
      username: 'octocat',
      queue: {position: 1, expectedAt: Date.now() + 3600_000},
    } as const;
    function renderExtras(entries: NonNullable<AccessStatus['extraRepositories']>) {
      const followed: string[] = [];
      renderWithSite(
        <ExtraRepositories entries={entries} onChanged={() => {}} follow={(url) => followed.push(url)} />,
        {env: {WORKER_URL: worker().url}},
      );
      return followed;
    }

    it("asks the worker for that repository's link and follows it, while the invitation still waits for GitHub's limit", async () => {
      worker().answer(`POST ${API_PATHS.downloadLink}`, 200, {
        path: `${API_PATHS.download}/token-1`,
        ref: 'main',
        release: false,
        expiresAt: Date.now() + 300_000,
      });
      const followed = renderExtras([entry]);
      await userEvent.click(screen.getByRole('button', {name: `Download ${name} (.zip)`}));
      expect(await screen.findByText(`Your download of ${name}, the main branch, has started.`)).toHaveAttribute(
        'role',
        'status',
      );
      expect(worker().calls).toEqual([{route: `POST ${API_PATHS.downloadLink}`, body: {repository: 'prompts'}}]);
      expect(followed).toEqual([`${worker().url}${API_PATHS.download}/token-1`]);
    });

    it("shows the worker's refusal beside it, and offers no download of a repository the seller has not set up", async () => {
      worker().answer(`POST ${API_PATHS.downloadLink}`, 403, {
        error: 'Your plan does not include this repository.',
        code: 'NOT_IN_PLAN',
      });
      const followed = renderExtras([entry]);
      await userEvent.click(screen.getByRole('button', {name: `Download ${name} (.zip)`}));
      expect(await screen.findByRole('alert')).toHaveTextContent('Your plan does not include this repository.');
      expect(followed).toEqual([]);
      document.body.innerHTML = '';
      renderExtras([{key: 'prompts', status: 'not_configured'}]);
      expect(screen.queryByRole('button', {name: /^Download/})).toBeNull();
    });
  });

  describe("an extra repository's invitation that expired after the last re-send", () => {
    const worker = useJsonWorker();
    const {name} = appConfig.extraRepositories.prompts;
    const expired: AccessStatus = {
      status: 'active',
      hasPaid: true,
      username: 'octocat',
      extraRepositories: [
        {key: 'prompts', repository: 'slipway/prompts', status: 'pending', username: 'octocat', expired: true},
      ],
    };

    it('says so and sends a new one for that repository on a click, then reads the status again', async () => {
      worker().answer(`POST ${API_PATHS.resendInvitation}`, 200, {status: 'invited'});
      const onChanged = jest.fn();
      renderWithSite(<AccessStatusPanel access={expired} onChanged={onChanged} />, {env: {WORKER_URL: worker().url}});
      const extras = screen.getByRole('region', {name: 'More repositories in your plan'});
      expect(extras).toHaveTextContent(
        `Invitation expired. GitHub invitations last seven days, and the one for @octocat has run out.`,
      );
      await userEvent.click(within(extras).getByRole('button', {name: `Resend the invitation to ${name}`}));
      await waitFor(() => expect(onChanged).toHaveBeenCalled());
      expect(worker().calls).toEqual([{route: `POST ${API_PATHS.resendInvitation}`, body: {key: 'prompts'}}]);
      expect(await screen.findByText(`A new invitation to ${name} is on its way.`)).toBeInTheDocument();
    });

    it('says so when the worker found the invitation accepted meanwhile, for the kit and for an extra repository: nothing new was sent', async () => {
      worker().answer(`POST ${API_PATHS.resendInvitation}`, 200, {status: 'active'});
      const both: AccessStatus = {...expired, status: 'pending', expired: true};
      renderWithSite(<AccessStatusPanel access={both} onChanged={() => {}} />, {env: {WORKER_URL: worker().url}});
      await userEvent.click(screen.getByRole('button', {name: `Resend the invitation to ${name}`}));
      expect(
        await screen.findByText(
          `You had accepted the invitation to ${name} already: you have access, and nothing new was sent.`,
        ),
      ).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', {name: 'Resend invitation'}));
      expect(
        await screen.findByText('You had accepted the invitation already: you have access, and nothing new was sent.'),
      ).toBeInTheDocument();
      // One endpoint for every repository: the kit's by its key too.
      expect(worker().calls.map(({body}) => body)).toEqual([{key: 'prompts'}, {key: 'kit'}]);
    });

    it("shows the worker's refusal in its words, and offers no button for an invitation not expired", async () => {
      worker().answer(`POST ${API_PATHS.resendInvitation}`, 409, {
        error: 'The invitation is still valid: check your e-mail or github.com/notifications',
        code: 'CONFLICT',
      });
      renderWithSite(<AccessStatusPanel access={expired} onChanged={() => {}} />, {env: {WORKER_URL: worker().url}});
      await userEvent.click(screen.getByRole('button', {name: `Resend the invitation to ${name}`}));
      expect(
        await screen.findByText('Error: The invitation is still valid: check your e-mail or github.com/notifications'),
      ).toBeInTheDocument();
      document.body.innerHTML = '';
      const valid = {...expired, extraRepositories: [{...expired.extraRepositories![0]!, expired: undefined}]};
      renderWithSite(<AccessStatusPanel access={valid} onChanged={() => {}} />, {env: {WORKER_URL: worker().url}});
      expect(screen.queryByRole('button', {name: /Resend the invitation/})).toBeNull();
    });
  });
});
