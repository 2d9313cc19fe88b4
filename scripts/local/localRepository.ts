/**
 * What the local GitHub stand-in holds when `npm start` starts it. The stand-in keeps its state in
 * memory, and the local D1 outlives it: started empty, it would disagree with every grant the
 * worker recorded before (the seeded ones, and any made in an earlier run), and the repository
 * audit would flag paying buyers. So it starts as the D1 says GitHub was left: accepted grants
 * (and those whose removal failed) as collaborators, pending ones as open invitations, the rest
 * off the repository; and, once `npm run seed:local` has run, the accounts it says were invited
 * by hand.
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
export const RECORDED_GRANTS_SQL =
  'SELECT session_id, github_username, github_user_id, invitation_id, status FROM access_grants WHERE github_user_id IS NOT NULL ORDER BY updated_at, session_id';

/** On the repository as a collaborator: accepted, or accepted and never removed. */
const COLLABORATOR: readonly GrantStatus[] = ['active', 'removal_failed'];

export function repositoryFromGrants(grants: readonly RecordedGrant[]): RepositoryState {
  const users = new Map<number, {login: string; id: number}>();
  const collaborators = new Set<number>();
  const invitations: {id: number; userId: number}[] = [];
  for (const grant of grants) {
    users.set(grant.github_user_id, {login: grant.github_username, id: grant.github_user_id});
    if (COLLABORATOR.includes(grant.status)) collaborators.add(grant.github_user_id);
    else if (grant.status === 'pending' && grant.invitation_id !== null) invitations.push({id: grant.invitation_id, userId: grant.github_user_id});
  }
  if (grants.some((grant) => grant.session_id.startsWith(SEED_SESSION_PREFIX))) {
    for (const account of SEED_HAND_INVITED) {
      users.set(account.id, account);
      collaborators.add(account.id);
    }
  }
  const loginOf = (id: number) => users.get(id)!.login;
  return {
    users: [...users.values()],
    collaborators: [...collaborators].map(loginOf),
    invitations: invitations.map(({id, userId}) => ({id, login: loginOf(userId)})),
  };
}

/** The grants of the local D1 (`persist`: wrangler's `--persist-to`, when LOCAL_STATE_DIR moves it). */
export function readRecordedGrants(persist: string[]): RecordedGrant[] {
  const result = spawnSync(WRANGLER, ['d1', 'execute', 'DB', '--local', '--json', '--command', RECORDED_GRANTS_SQL, ...persist], {
    cwd: WORKER_DIR,
    env: WRANGLER_ENV,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`Reading the local D1's grants failed:\n${result.stdout}\n${result.stderr}`);
  const [answer] = JSON.parse(result.stdout) as [{results: RecordedGrant[]}];
  return answer.results;
}
