import {appConfig} from '../../src/config';
import {siteUrl, useBrowser} from './helpers';

describe('the error screen in Chromium', () => {
  const browser = useBrowser();

  it('reloads the page on Refresh', async () => {
    const {page, errors} = await browser().open('/error');
    await page.evaluate(() => Object.assign(window, {beforeRefresh: true}));
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', {name: 'Refresh'}).click()]);
    expect(await page.evaluate(() => 'beforeRefresh' in window)).toBe(false);
    expect(page.url()).toBe(siteUrl('/error'));
    expect(errors).toEqual([]);
  });

  it('offers support by e-mail and goes Home', async () => {
    const {page} = await browser().open('/error');
    expect(await page.getByRole('main').getByRole('link', {name: 'Support'}).getAttribute('href')).toMatch(
      new RegExp(`^mailto:${appConfig.support.email}`),
    );
    await page.getByRole('main').getByRole('link', {name: 'Home'}).click();
    await page.waitForURL(siteUrl('/'));
    await page.getByRole('heading', {level: 1}).waitFor();
  });
});
