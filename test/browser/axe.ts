import AxeBuilder from '@axe-core/playwright';
import type {Page} from 'playwright-core';

/**
 * Every axe violation on the page as it is now, whatever its impact: a "minor" one (a missing
 * landmark, a redundant role) is still something a screen-reader user meets.
 */
export async function axeViolations(page: Page) {
  const {violations} = await new AxeBuilder({page}).analyze();
  return violations.map((violation) => ({rule: violation.id, impact: violation.impact, nodes: violation.nodes.map((node) => node.target.join(' '))}));
}
