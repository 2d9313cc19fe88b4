import type {AccessStatus} from '../../../config/api';

/** A queued invitation's place in its repository's line: the kit's and every extra repository's alike. */
export type QueuePlace = NonNullable<AccessStatus['queue']>;

const dateTime = new Intl.DateTimeFormat('en-GB', {dateStyle: 'medium', timeStyle: 'short'});

/** When a queued invitation is expected, in the buyer's own time zone. */
export function expected(at: number): string {
  return at <= Date.now() ? 'within a few minutes' : `around ${dateTime.format(at)}`;
}

/** Its place, as the buyer reads it: "number 3 in line". */
export const inLine = (queue: QueuePlace) => `number ${queue.position} in line`;
