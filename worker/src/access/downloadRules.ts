import {appConfig} from '../../../src/config';
import {HttpError} from '../errors';

/** The download rules that need no request: the switch, the link's life and the file's name. */

/** How long a download link works: long enough to click it, too short to pass it around. */
export const DOWNLOAD_LINK_TTL_MS = 5 * 60_000;

/** Downloads turned off in the config: every call refuses, so the switch holds on the server too. */
export function refuseWhenOff(enabled: boolean = appConfig.repository.downloads) {
  if (!enabled) {
    throw new HttpError(
      404,
      'Downloads are turned off for this product: use the GitHub invitation on your dashboard.',
      'DOWNLOADS_OFF',
    );
  }
}

/** `owner-name-ref.zip`, with only the characters every file system takes. */
export function archiveName(repository: string, ref: string): string {
  return `${repository.replace('/', '-')}-${ref}`.replace(/[^A-Za-z0-9._-]+/g, '-') + '.zip';
}
