/**
 * The legal pages say when their text last changed ("Last updated", from src/config/legal.ts).
 * Issue 38: the terms said "September 1, 2024" beside © 2026, long after they had changed.
 *
 * Each text is recorded here with the day stated for it, by its SHA-256: a text that changes while
 * its date does not fails, and the message says what to set and record. Git's history could say
 * when a file changed, but a downloaded archive has no history and a shallow clone only its tip,
 * so the text itself is the witness. The facts the texts read from src/config (the name, the
 * plans and their prices) are the product's: they change with it, and are not recorded here.
 */
import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {legal} from '../../src/config';

// 2026-12-05: both texts read the guarantee's days from src/config instead of writing 7: the words a
// reader sees are the same, so their dates stay. Later that day the terms' section 7 changed: the
// withdrawal from the dashboard, and the guarantee's own refund there; the privacy policy names what
// they keep (the consent, the reason, the card's fingerprint).
// 2026-12-07: the privacy policy names what the affiliate programme keeps (the visit, the referral in
// local storage, the commission) and why.
const RECORDED: Record<keyof typeof legal, {file: string; lastUpdated: string; sha256: string}> = {
  terms: {
    file: 'src/pages/_legal/tos.mdx',
    lastUpdated: '2026-12-05',
    sha256: '512d0cb7213ab4b6334d2e629ac4862e67a570437e0c607128a58ce873645523',
  },
  privacy: {
    file: 'src/pages/_legal/privacy-policy.mdx',
    lastUpdated: '2026-12-07',
    sha256: '62dc63638207f123973c5bb80f4be93921292aae35e6cb3f335e560547c8a765',
  },
};

/** The text's hash, with Windows line endings read as a Unix checkout has them. */
function textHash(file: string): string {
  const text = readFileSync(path.join(__dirname, '../..', file), 'utf8').replace(/\r\n/g, '\n');
  return createHash('sha256').update(text).digest('hex');
}

describe('the legal pages’ "Last updated"', () => {
  it.each(Object.entries(RECORDED).map(([key, recorded]) => [recorded.file, key, recorded] as const))(
    'of %s is the day that text last changed',
    (_file, key, recorded) => {
      const stated = legal[key as keyof typeof legal].lastUpdated;
      const sha256 = textHash(recorded.file);
      if (sha256 !== recorded.sha256) {
        throw new Error(
          `${recorded.file} changed since ${recorded.lastUpdated}, the day its page states. Set legal.${key}.lastUpdated ` +
            `in src/config/legal.ts to the day this text takes effect, and record that day here: ` +
            `${key}: {file: '${recorded.file}', lastUpdated: '<that day>', sha256: '${sha256}'}`,
        );
      }
      // The date may move only with its text: a new date is recorded beside the text it is for.
      expect(stated).toBe(recorded.lastUpdated);
      expect(new Date(`${stated}T00:00:00Z`).toISOString().slice(0, 10)).toBe(stated);
    },
  );
});
