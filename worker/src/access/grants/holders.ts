import type {Context} from '../../context';
import {HOLDER_SQL} from './liveGrants';

/** A grant, as a take-back read it: the row it leaves out when it asks who else holds an account. */
export interface GrantVersion {
  sessionId: string;
  seat: number;
  version: number;
}

/**
 * The purchase whose live grant (queued, pending or active) of `repository` holds this GitHub
 * account or this invitation, other than `except` (the grant being taken back, as it was read), or
 * null. Every repository's take-back asks this before it touches GitHub, and so does the seller's
 * fix in the audit: an account invited again since by another purchase (or, for the kit, by this
 * one moved away and back) is that grant's, not the take-back's.
 *
 * The kit's row names its repository by its key ('kit'; its `repository` is null): it is the
 * worker's GITHUB_REPO.
 */
export async function holderOf(
  {db, settings}: Pick<Context, 'db' | 'settings'>,
  repository: string,
  github: {githubUserId?: number | null; invitationId?: number | null},
  except: GrantVersion | null = null,
): Promise<string | null> {
  const holder = await db
    .prepare(HOLDER_SQL)
    .bind(
      github.githubUserId ?? null,
      github.invitationId ?? null,
      settings.GITHUB_REPO ?? null,
      repository,
      except?.sessionId ?? '',
      except?.version ?? -1,
      except?.seat ?? -1,
    )
    .first<{session_id: string}>();
  return holder?.session_id ?? null;
}
