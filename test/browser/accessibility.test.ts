import AxeBuilder from '@axe-core/playwright';
import {useBrowser} from './helpers';

describe('accessibility (axe-core)', () => {
  const browser = useBrowser();

  it.each(['/', '/success', '/tos', '/privacy-policy', '/error'])('%s has no serious or critical violation and no console error', async (path) => {
    const {page, errors} = await browser().open(path);
    const {violations} = await new AxeBuilder({page}).analyze();
    const blocking = violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({rule: violation.id, impact: violation.impact, nodes: violation.nodes.map((node) => node.target.join(' '))}));
    expect(blocking).toEqual([]);
    expect(errors).toEqual([]);
  });
});
