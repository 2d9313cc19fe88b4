import {readFileSync} from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type {Page} from 'playwright-core';

/**
 * The minified axe of @axe-core/playwright's own axe-core (the one hoisted beside it is another
 * version). By default it injects the readable axe.js, 1.5 MB the page parses before every check:
 * measured on 24 docs pages, 38.2 core-s with it against 25.7 with this one. Same rules, same code.
 */
const axeSource = readFileSync(
  require.resolve('axe-core/axe.min.js', {paths: [path.dirname(require.resolve('@axe-core/playwright'))]}),
  'utf8',
);

/**
 * Every axe violation on the page as it is now, whatever its impact: a "minor" one (a missing
 * landmark, a redundant role) is still something a screen-reader user meets. `within` limits the
 * check to the elements a selector matches, for a part of the page that changed since a full check.
 */
export async function axeViolations(page: Page, {within}: {within?: string} = {}) {
  // A fade still running reads as low contrast (a page just reached by a redirect, its features
  // panel fading in): check what the visitor sees once it has settled. Endless ones (a spinner) never do.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  const builder = new AxeBuilder({page, axeSource})
    // Only violations are read: axe then keeps one example of each passing rule, not every node.
    .options({resultTypes: ['violations']})
    // Legacy mode differs only for frames (it cannot enter cross-origin ones); on a page without
    // any it checks the same and skips the blank page the default opens to merge frame results,
    // which halves the time on a long docs page.
    .setLegacyMode(page.frames().length === 1);
  if (within) builder.include(within);
  const {violations} = await builder.analyze();
  return violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    nodes: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
