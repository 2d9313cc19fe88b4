/**
 * The money-back guarantee's length is a product fact, said once (`guarantee.days` in
 * src/config/app.ts): the FAQ, the terms, the privacy policy, the docs and the legal prompts read
 * it, so a seller who changes it changes every promise at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import {screen} from '@testing-library/react';
import FAQ from '../../src/components/landing/FAQ';
import {appConfig, landing} from '../../src/config';
import {renderWithSite} from '../support/render';

const ROOT = path.join(__dirname, '..', '..');

/** Every file of the site's pages and config and of the current docs (frozen versions keep their words). */
function copyFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), {withFileTypes: true}).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return copyFiles(relative);
    return /\.(mdx?|tsx?)$/.test(entry.name) ? [relative] : [];
  });
}

/** A refund promise that writes its number of days itself, instead of reading the config. */
const WRITTEN_OUT = /within (\d+|seven|fourteen|thirty) days of (your |a )?purchase|\d+-day (money-back|refund)/i;

describe('the guarantee window', () => {
  it('is written by nobody but the config: no page, doc or prompt says its number of days itself', () => {
    const files = ['src/config', 'src/pages', 'src/components', 'docs'].flatMap(copyFiles);
    expect(files).toEqual(expect.arrayContaining(['src/config/landing.ts', 'src/pages/_legal/tos.mdx']));
    const offenders = files.filter((file) => WRITTEN_OUT.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it("is what the landing page's FAQ promises", () => {
    renderWithSite(<FAQ />);
    const refund = landing.faq.items.find((item) => /refund/i.test(item.question))!;
    expect(refund.answer).toContain(`within ${appConfig.guarantee.days} days of your purchase`);
    expect(screen.getByText(refund.answer)).toBeInTheDocument();
  });
});
