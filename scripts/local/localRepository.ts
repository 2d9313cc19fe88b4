/**
 * What the local GitHub stand-in holds when `npm start` starts it. The stand-in keeps its state in
 * memory, and the local D1 outlives it: started empty, it would disagree with every grant the
 * worker recorded before (the seeded ones, and any made in an earlier run), and the repository
 * audit would flag paying buyers. So it starts as the D1 says GitHub was left: accepted grants
 * (and those whose removal failed) as collaborators, pending ones as open invitations, the rest
 * off the repository; and, once `npm run seed:local` has run, the accounts it says were invited
 * by hand. The extra repositories (the plans' prompts) likewise, from their own grants.
 */
import {spawnSync} from 'node:child_process';
import type {GrantStatus} from '../../src/config/api';
import {WORKER_DIR, WRANGLER, WRANGLER_ENV} from '../wrangler';
import type {RepositoryState} from './githubApi';
import {SEED_HAND_INVITED, SEED_SESSION_PREFIX} from './seedData';

/** A grant as the local D1 records it. */
export interface RecordedGrant {
  session_id: string;
  github_username: string;
  github_user_id: number;
  invitation_id: number | null;
  status: GrantStatus;
}

/** The grants that name a GitHub account, oldest first (so that an account's latest login wins). */
export const RECORDED_GRANTS_SQL = `SELECT session_id, github_username, github_user_id, invitation_id, status FROM grants WHERE repository_key = 'kit' AND github_user_id IS NOT NULL ORDER BY updated_at, session_id`;

/** An extra repository's grant as the local D1 records it. */
export interface RecordedExtraGrant {
  repository: string;
  github_username: string;
  github_user_id: number;
  invitation_id: number | null;
  status: GrantStatus;
}

/** The extra grants that name a repository and an account, oldest first. */
export const RECORDED_EXTRA_GRANTS_SQL = `SELECT repository, github_username, github_user_id, invitation_id, status FROM grants WHERE repository_key <> 'kit' AND repository IS NOT NULL AND github_user_id IS NOT NULL ORDER BY updated_at, session_id`;

/** On the repository as a collaborator: accepted, or accepted and never removed. */
const COLLABORATOR: readonly GrantStatus[] = ['active', 'removal_failed'];

/** Who is on a repository and who is invited, by account id, from its grants. */
interface Access {
  collaborators: Set<number>;
  invitations: {id: number; userId: number}[];
}

export function repositoryFromGrants(
  grants: readonly RecordedGrant[],
  extraGrants: readonly RecordedExtraGrant[] = [],
): RepositoryState {
  const users = new Map<number, {login: string; id: number}>();
  const kit: Access = {collaborators: new Set(), invitations: []};
  const extra = new Map<string, Access>();
  const place = (
    access: Access,
    grant: {github_user_id: number; github_username: string; invitation_id: number | null},
    collaborator: boolean,
    pending: boolean,
  ) => {
    users.set(grant.github_user_id, {login: grant.github_username, id: grant.github_user_id});
    if (collaborator) access.collaborators.add(grant.github_user_id);
    else if (pending && grant.invitation_id !== null)
      access.invitations.push({id: grant.invitation_id, userId: grant.github_user_id});
  };
  for (const grant of grants) place(kit, grant, COLLABORATOR.includes(grant.status), grant.status === 'pending');
  for (const grant of extraGrants) {
    if (!extra.has(grant.repository)) extra.set(grant.repository, {collaborators: new Set(), invitations: []});
    place(extra.get(grant.repository)!, grant, grant.status === 'active', grant.status === 'pending');
  }
  if (grants.some((grant) => grant.session_id.startsWith(SEED_SESSION_PREFIX))) {
    for (const account of SEED_HAND_INVITED) {
      users.set(account.id, account);
      kit.collaborators.add(account.id);
    }
  }
  const loginOf = (id: number) => users.get(id)!.login;
  const named = (access: Access) => ({
    collaborators: [...access.collaborators].map(loginOf),
    invitations: access.invitations.map(({id, userId}) => ({id, login: loginOf(userId)})),
  });
  return {
    users: [...users.values()],
    ...named(kit),
    extra: [...extra].map(([repository, access]) => ({repository, ...named(access)})),
  };
}

/** The kit's and the extra repositories' grants of the local D1 (`persist`: wrangler's `--persist-to`, when LOCAL_STATE_DIR moves it). */
export function readRecordedGrants(persist: string[]): {grants: RecordedGrant[]; extraGrants: RecordedExtraGrant[]} {
  const result = spawnSync(
    WRANGLER,
    [
      'd1',
      'execute',
      'DB',
      '--local',
      '--json',
      '--command',
      `${RECORDED_GRANTS_SQL}; ${RECORDED_EXTRA_GRANTS_SQL}`,
      ...persist,
    ],
    {cwd: WORKER_DIR, env: WRANGLER_ENV, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024},
  );
  if (result.status !== 0) throw new Error(`Reading the local D1's grants failed:\n${result.stdout}\n${result.stderr}`);
  const [grants, extraGrants] = JSON.parse(result.stdout) as [
    {results: RecordedGrant[]},
    {results: RecordedExtraGrant[]},
  ];
  return {grants: grants.results, extraGrants: extraGrants.results};
}
