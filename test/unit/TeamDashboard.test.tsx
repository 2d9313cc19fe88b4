/**
 * A team on the dashboard (issue 41): the owner's "Your team" (its seats, each member's state, and
 * giving, withdrawing and taking back a seat), a member's dashboard (their access, whose team it is,
 * and nothing of the owner's billing), and a member whose seat ended.
 */
import React from 'react';
import {fireEvent, screen, waitFor, within} from '@testing-library/react';
import {SignedInDashboard} from '../../src/components/screens/Dashboard';
import {
  appConfig,
  type AccessStatus,
  API_PATHS,
  type BuyerReleases,
  memberOfTeam,
  seatEndedWords,
  type Team,
  whatsNewWords,
} from '../../src/config';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';

const worker = useJsonWorker();
const advanced = appConfig.plans[1]!;
const starter = appConfig.plans[0]!;
const owner = {uid: 'owner-1', email: 'lead@example.com', displayName: null, photoURL: null};
const IN_A_WEEK = Date.now() + 7 * 24 * 3600_000;

let consoleError: jest.SpyInstance;
beforeEach(() => {
  // The calls the test's worker does not answer (prices, What's new) are logged.
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  await waitFor(() => expect(screen.queryAllByRole('progressbar')).toEqual([]));
  consoleError.mockRestore();
});

const TEAM: Team = {
  sessionId: 'cs_test_team',
  seats: 4,
  free: 1,
  members: [
    {seat: 2, state: 'joined', username: 'octocat', access: 'active', expired: false},
    {seat: 3, state: 'joined', email: 'sam@example.com', access: 'queued', expired: false},
    {seat: 4, state: 'invited', email: 'kim@example.com', access: 'none', expired: false, linkExpiresAt: IN_A_WEEK},
  ],
};

function show(access: AccessStatus, user = owner, releases: Partial<BuyerReleases> = {}) {
  worker().answer(`GET ${API_PATHS.accessStatus}`, 200, access);
  worker().answer(`GET ${API_PATHS.team}`, 200, TEAM);
  worker().answer(`GET ${API_PATHS.receipts}`, 200, {receipts: []});
  worker().answer(`GET ${API_PATHS.upgrades}`, 200, {plan: access.plan ?? null, upgrades: [], seats: null});
  worker().answer(`GET ${API_PATHS.releases}`, 200, {
    releases: [],
    includesUpdates: true,
    subscribed: true,
    latestTag: null,
    ...releases,
  });
  renderWithSite(<SignedInDashboard user={user} />, {env: {WORKER_URL: worker().url}});
}

const ownerAccess: AccessStatus = {
  status: 'active',
  hasPaid: true,
  username: 'lead',
  seats: 4,
  plan: {id: advanced.id, name: advanced.name},
};

describe("the owner's team", () => {
  it('lists every member with the state of their access, and the free seats', async () => {
    show(ownerAccess);
    const team = await screen.findByRole('region', {name: 'Your team'});
    const members = await within(team).findByRole('list', {name: 'Members'});
    expect(team).toHaveTextContent('4 seats: yours, and 3 for your developers. 1 free.');
    const [octocat, sam, kim] = within(members).getAllByRole('listitem');
    expect(octocat).toHaveTextContent('@octocat');
    expect(octocat).toHaveTextContent('Has access to the repository.');
    expect(sam).toHaveTextContent('sam@example.com');
    expect(sam).toHaveTextContent("Waiting for GitHub's daily limit of invitations");
    expect(kim).toHaveTextContent('Invited by e-mail');
    expect(within(kim).getByRole('button', {name: 'Withdraw kim@example.com'})).toBeInTheDocument();
    expect(within(octocat).getByRole('button', {name: 'Remove @octocat'})).toBeInTheDocument();
    expect(within(octocat).queryByRole('button', {name: /Send a new link/})).toBeNull();
  });

  it('gives a seat by e-mail or by GitHub username, and says what happens next', async () => {
    worker().answer(`POST ${API_PATHS.addTeamMember}`, 200, {seat: 5, state: 'invited', access: 'none'});
    show(ownerAccess);
    const team = await screen.findByRole('region', {name: 'Your team'});
    const field = await within(team).findByRole('textbox', {name: "Developer's e-mail or GitHub username"});
    fireEvent.change(field, {target: {value: ' new@example.com '}});
    fireEvent.click(within(team).getByRole('button', {name: 'Give a seat'}));
    await waitFor(() => expect(within(team).getByRole('status')).toHaveTextContent('A link went to new@example.com'));
    fireEvent.change(field, {target: {value: '@hubot'}});
    fireEvent.click(within(team).getByRole('button', {name: 'Give a seat'}));
    await waitFor(() => expect(within(team).getByRole('status')).toHaveTextContent('@hubot has a seat'));
    expect(worker().calls.filter((call) => call.route === `POST ${API_PATHS.addTeamMember}`)).toEqual([
      {route: `POST ${API_PATHS.addTeamMember}`, body: {email: 'new@example.com'}},
      {route: `POST ${API_PATHS.addTeamMember}`, body: {username: 'hubot'}},
    ]);
  });

  it("removes a member by their seat, and shows the worker's refusal in its words", async () => {
    worker().answer(`POST ${API_PATHS.removeTeamMember}`, 200, TEAM);
    worker().answer(`POST ${API_PATHS.resendTeamInvitation}`, 404, {
      code: 'NOT_FOUND',
      error: 'Seat 4 has no member and no invitation.',
    });
    show(ownerAccess);
    const team = await screen.findByRole('region', {name: 'Your team'});
    fireEvent.click(await within(team).findByRole('button', {name: 'Remove @octocat'}));
    await waitFor(() =>
      expect(within(team).getByRole('status')).toHaveTextContent('@octocat was removed, and their access taken back.'),
    );
    expect(worker().calls.find((call) => call.route === `POST ${API_PATHS.removeTeamMember}`)?.body).toEqual({seat: 2});
    fireEvent.click(within(team).getByRole('button', {name: 'Send a new link to kim@example.com'}));
    expect(await within(team).findByRole('alert')).toHaveTextContent('Seat 4 has no member and no invitation.');
  });

  it('is not shown to a buyer of one seat', async () => {
    show({...ownerAccess, seats: undefined});
    expect(await screen.findByRole('region', {name: 'Billing'})).toBeInTheDocument();
    expect(screen.queryByRole('region', {name: 'Your team'})).toBeNull();
  });

  it("shows What's new of the team's plan, and says release e-mails go to the owner, with no switch of the owner's", async () => {
    show(
      {status: 'none', hasPaid: true, team: {owner: owner.email, seat: 3, plan: {id: starter.id, name: starter.name}}},
      {uid: 'member-2', email: 'kim@example.com', displayName: null, photoURL: null},
      {includesUpdates: false, teamOwner: owner.email},
    );
    const news = await screen.findByRole('region', {name: "What's new"});
    expect(await within(news).findByText(whatsNewWords.teamEmails(owner.email))).toBeInTheDocument();
    expect(within(news).getByText(whatsNewWords.teamWithoutUpdates(owner.email))).toBeInTheDocument();
    expect(within(news).queryByRole('button')).toBeNull();
    expect(within(news).queryByRole('link', {name: whatsNewWords.upgradeLink})).toBeNull();
  });
});

describe("a member's dashboard", () => {
  const member = {uid: 'member-1', email: 'sam@example.com', displayName: null, photoURL: null};

  it("says whose team the access is, offers the code, and shows nothing of the owner's billing", async () => {
    show(
      {
        status: 'none',
        hasPaid: true,
        team: {owner: owner.email, seat: 3, plan: {id: advanced.id, name: advanced.name}},
      },
      member,
    );
    expect(await screen.findByText(memberOfTeam(owner.email, advanced.name))).toBeInTheDocument();
    expect(screen.getByRole('textbox', {name: 'GitHub username'})).toBeInTheDocument();
    expect(screen.queryByRole('region', {name: 'Billing'})).toBeNull();
    expect(screen.queryByRole('region', {name: 'Receipts'})).toBeNull();
    expect(screen.queryByRole('region', {name: 'Your team'})).toBeNull();
  });

  it('says a seat the owner took back has ended, never that they did not buy', async () => {
    show({status: 'revoked', hasPaid: false, teamEnded: {owner: owner.email, reason: 'removed'}}, member);
    const words = seatEndedWords(owner.email);
    expect(await screen.findByRole('heading', {level: 1, name: words.title})).toBeInTheDocument();
    expect(screen.getByText(words.text)).toBeInTheDocument();
    expect(screen.queryByText(/You have not bought/)).toBeNull();
  });

  it('says a seat a refund of seats took away ended for that reason, not that the owner removed them', async () => {
    show({status: 'revoked', hasPaid: false, teamEnded: {owner: owner.email, reason: 'seats_refunded'}}, member);
    const words = seatEndedWords(owner.email, 'seats_refunded');
    expect(await screen.findByText(words.text)).toBeInTheDocument();
    expect(words.text).toContain(
      `${owner.email} no longer pays for some of the team's seats (a refund or a dispute), and yours was one of them`,
    );
    expect(screen.queryByText(/removed you/)).toBeNull();
  });

  it('says a seat the seller took back ended by the seller, and sends the member to support, not to the owner', async () => {
    show({status: 'revoked', hasPaid: false, teamEnded: {owner: owner.email, reason: 'seller'}}, member);
    const words = seatEndedWords(owner.email, 'seller');
    expect(await screen.findByText(words.text)).toBeInTheDocument();
    expect(words.text).toContain(`took back your seat of ${owner.email}'s team`);
    expect(words.text).toContain(appConfig.support.email);
    expect(screen.queryByText(/removed you|Ask them for a seat/)).toBeNull();
  });
});
