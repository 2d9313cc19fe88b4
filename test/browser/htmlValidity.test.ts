/**
 * Every built page is valid HTML by the Nu Html Checker, but for the Docusaurus constructs listed,
 * each with its reason, in test/support/htmlValidityAllowList.ts.
 */
import path from 'node:path';
import {builtPages} from '../support/builtPages';
import {allowedBy, HTML_VALIDITY_ALLOW_LIST} from '../support/htmlValidityAllowList';
import {nuErrors, type NuMessage} from '../support/nuHtmlChecker';

describe('HTML validity (Nu Html Checker)', () => {
  const dir = () => process.env.TEST_SITE_DIR!;
  let errors: NuMessage[];

  // One JVM for the whole build; on a busy two-core machine that still takes a minute or two.
  beforeAll(async () => {
    errors = await nuErrors(builtPages(dir()).map((page) => page.file));
  }, 300_000);

  it('finds no error in any built page beyond the allow-list', () => {
    const unexplained = errors
      .filter((error) => !allowedBy(error))
      .map(
        (error) =>
          `${path.relative(dir(), new URL(error.url ?? 'file:/').pathname)}:${error.lastLine ?? '?'} ${error.message} [${error.extract ?? ''}]`,
      );
    expect(unexplained).toEqual([]);
  });

  it('keeps no allow-list entry that no longer matches an error', () => {
    const unused = HTML_VALIDITY_ALLOW_LIST.filter((entry) => !errors.some((error) => allowedBy(error) === entry));
    expect(unused.map((entry) => entry.message)).toEqual([]);
  });
});
