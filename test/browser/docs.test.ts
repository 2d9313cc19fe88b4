/**
 * The docs portal in Chromium, as a developer reading it uses it.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {Page} from 'playwright-core';
import {appConfig, type AppConfig, ROUTES} from '../../src/config';
import {COMPONENT_PAGES} from '../support/docsStructure';
import {ROOT} from '../../scripts/support/site';
import {launchChromium} from '../../scripts/support/chromium';
import {eventually, siteUrl, useBrowser, useTabPool} from './helpers';

/** Relative luminance of the page background (the body's, else the root's), 0 (black) to 1 (white). */
function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const body = getComputedStyle(document.body).backgroundColor;
    const colour = body === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.documentElement).backgroundColor : body;
    const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
      const channel = Number(value) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  });
}

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);

/** Opens the search bar with its shortcut, which also loads it (src/theme/SearchBar.tsx), and types. */
async function searchFor(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+k');
  const input = page.getByPlaceholder(/search/i).first();
  await input.waitFor();
  await eventually(
    () => input.evaluate((element) => element === document.activeElement),
    (value) => expect(value).toBe(true),
  );
  await page.keyboard.type(text);
}

describe('docs portal', () => {
  const browser = useBrowser();

  describe('colour', () => {
    it('renders /docs dark and / light, and switches on client navigation both ways', async () => {
      const {page, errors} = await browser().open('/docs');
      expect(await theme(page)).toBe('dark');
      expect(await backgroundLuminance(page)).toBeLessThan(0.1);

      await page
        .getByRole('link', {name: `${appConfig.appName} logo ${appConfig.appName}`})
        .first()
        .click();
      await page.waitForURL(siteUrl('/'));
      await eventually(
        () => theme(page),
        (value) => expect(value).toBe('light'),
      );
      expect(await backgroundLuminance(page)).toBeGreaterThan(0.9);

      await page.goto(siteUrl('/'));
      expect(await theme(page)).toBe('light');
      expect(await backgroundLuminance(page)).toBeGreaterThan(0.9);
      expect(errors).toEqual([]);
    });

    it('paints a docs page dark before any script of the app runs', async () => {
      const {page} = await browser().open('/');
      await page.route('**/*.js', (route) => route.abort());
      await page.goto(siteUrl('/docs/features/payments'));
      expect(await page.evaluate(() => document.documentElement.dataset.hasHydrated)).not.toBe('true');
      expect(await theme(page)).toBe('dark');
    });
  });

  describe('Firebase/Supabase switch', () => {
    const selectedTab = (page: Page) => page.getByRole('tab', {selected: true}).first();

    it('defaults to Firebase', async () => {
      const {page} = await browser().open('/docs');
      await eventually(
        () => selectedTab(page).textContent(),
        (value) => expect(value).toBe('Firebase'),
      );
    });

    it('holds a choice made on one page on every other page', async () => {
      const {page, errors} = await browser().open('/docs');
      await page.getByRole('tab', {name: 'Supabase'}).first().click();
      await eventually(
        () => page.url(),
        (value) => expect(value).toContain('backend=supabase'),
      );
      await eventually(
        () => selectedTab(page).textContent(),
        (value) => expect(value).toBe('Supabase'),
      );

      await page.getByRole('link', {name: 'Database', exact: true}).click();
      await page.waitForURL(/\/docs\/features\/database/);
      // The router changes the address before it draws the page: until the new heading is drawn,
      // the tabs read are the last page's (a run with three files side by side read those).
      await page.getByRole('heading', {level: 1, name: 'Database'}).waitFor();
      await eventually(
        () => selectedTab(page).textContent(),
        (value) => expect(value).toBe('Supabase'),
      );
      expect(await page.getByRole('tabpanel').first().textContent()).toMatch(/profiles/);

      // A fresh load of another page in the same browser remembers it too.
      await page.goto(siteUrl('/docs/features/magic-links'));
      await eventually(
        () => selectedTab(page).textContent(),
        (value) => expect(value).toBe('Supabase'),
      );
      expect(errors).toEqual([]);
    });

    it("shows the other backend's code, highlighted, when the reader switches tabs on a page opened directly", async () => {
      const {page, errors} = await browser().open('/docs/features/database');
      await page.getByRole('tab', {name: 'Supabase'}).first().click();
      const panel = page.getByRole('tabpanel').filter({hasText: 'create table public.profiles'});
      await panel.waitFor();
      expect(await panel.locator('pre .token.keyword').first().textContent()).toBe('create');
      await page.getByRole('tab', {name: 'Firebase'}).first().click();
      await eventually(
        () => panel.isVisible(),
        (value) => expect(value).toBe(false),
      );
      expect(errors).toEqual([]);
    });

    it('opens a shared link with ?backend=supabase on Supabase, in a browser that never chose', async () => {
      const {page} = await browser().open('/docs/tutorials/api-call?backend=supabase');
      await eventually(
        () => selectedTab(page).textContent(),
        (value) => expect(value).toBe('Supabase'),
      );
    });
  });

  describe('search', () => {
    it('offers a link to the search page until the search bar has loaded, and without JavaScript', async () => {
      const {page} = await browser().open('/');
      await page.route('**/*.js', (route) => route.abort());
      await page.goto(siteUrl('/docs/features/payments'));
      expect(await page.getByRole('link', {name: 'Search', exact: true}).getAttribute('href')).toBe('/search');
    });

    it('turns the link into the search box when the reader points at it or tabs to it', async () => {
      const {page, errors} = await browser().open('/docs/features/payments');
      await page.getByRole('link', {name: 'Search', exact: true}).hover();
      await page
        .getByPlaceholder(/search/i)
        .first()
        .waitFor();

      const tab = await browser().open('/docs/features/payments');
      await tab.page.getByRole('link', {name: 'Search', exact: true}).focus();
      const input = tab.page.getByPlaceholder(/search/i).first();
      await eventually(
        () => input.evaluate((element) => element === document.activeElement),
        (value) => expect(value).toBe(true),
      );
      await tab.page.keyboard.type('webhook');
      await tab.page
        .getByRole('option', {name: /Payments and the Stripe webhook/})
        .first()
        .waitFor();
      expect([...errors, ...tab.errors]).toEqual([]);
    });

    it('marks the searched word on the page a result of the search page opens', async () => {
      const {page, errors} = await browser().open('/search?q=webhook');
      await page
        .locator('a[href^="/docs/features/payments"]')
        .filter({hasText: /webhook/i})
        .first()
        .click();
      await page.waitForURL(/\/docs\/features\/payments\?_highlight=webhook/);
      await eventually(
        () => page.locator('article mark').allTextContents(),
        (marks) => expect(marks.map((mark) => mark.toLowerCase())).toContain('webhook'),
      );
      expect(errors).toEqual([]);
    });

    it('lists the payments page for "webhook" on the search page', async () => {
      const {page, errors} = await browser().open('/search?q=webhook');
      await page.getByRole('heading', {name: 'Search results for "webhook"'}).waitFor();
      // The search page has no sidebar: a link to the payments page here is a result.
      await page
        .locator('a[href^="/docs/features/payments"]')
        .filter({hasText: /webhook/i})
        .first()
        .waitFor();
      expect(errors).toEqual([]);
    });

    it('opens from the keyboard shortcut and takes the reader to the payments page', async () => {
      const {page, errors} = await browser().open('/docs');
      await searchFor(page, 'webhook');
      await page
        .getByRole('option', {name: /Payments and the Stripe webhook/})
        .first()
        .waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/docs\/features\/payments/);
      expect(errors).toEqual([]);
    });
  });

  describe('versions', () => {
    it('switches to the same page of the released version from the dropdown, with a banner that says so', async () => {
      const {page, errors} = await browser().open('/docs/features/payments');
      await page.getByRole('button', {name: /\(current\)/}).hover();
      await page.getByRole('link', {name: '1.0', exact: true}).click();
      await page.waitForURL(/\/docs\/1\.0\/features\/payments$/);
      await page.getByText(`documentation for ${appConfig.appName} 1.0`).waitFor();
      await page.getByRole('link', {name: /latest version/}).waitFor();
      expect(await theme(page)).toBe('dark');
      expect(errors).toEqual([]);
    });

    it('searches the version being read', async () => {
      const {page} = await browser().open('/docs/1.0');
      await searchFor(page, 'webhook');
      await page
        .getByRole('option', {name: /Payments and the Stripe webhook/})
        .first()
        .waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/docs\/1\.0\/features\/payments/);
    });
  });

  describe("a page's other address", () => {
    it("/docs/get-started, the Get started page's file, opens that page, query and fragment kept", async () => {
      const {page, errors} = await browser().open('/docs/get-started?backend=supabase#environment-files');
      await page.waitForURL(siteUrl('/docs?backend=supabase#environment-files'));
      await page.getByRole('main').getByRole('heading', {name: 'Get started', level: 1}).waitFor();
      expect(errors).toEqual([]);
    });

    it('links to it without JavaScript, and keeps itself out of search engines', async () => {
      const chromium = await launchChromium({offline: true});
      try {
        const page = await (await chromium.newContext({javaScriptEnabled: false})).newPage();
        const response = await page.goto(siteUrl('/docs/get-started'));
        expect(await response!.text()).toMatch(/<meta[^>]* name="?robots"? content="?noindex/);
        await page.getByRole('link', {name: '/docs'}).click();
        await page.waitForURL(siteUrl('/docs'));
        await page.getByRole('main').getByRole('heading', {name: 'Get started', level: 1}).waitFor();
      } finally {
        await chromium.close();
      }
    });
  });

  describe('code blocks', () => {
    // Prism is in no page's bundle (src/plugins/prismOnDemand); the browser loads it only to
    // highlight code a client-side navigation brought (src/theme/CodeBlock/Content).
    it('highlight shell commands on a docs page reached from the landing page', async () => {
      const {page, errors} = await browser().open('/');
      await page.getByRole('link', {name: 'Documentation'}).click();
      await page.waitForURL(siteUrl('/docs'));
      const install = page.locator('pre').filter({hasText: 'npm ci'}).first();
      const command = install.getByText('npm', {exact: true}).first();
      await eventually(
        () => command.getAttribute('class'),
        (value) => expect(value).toMatch(/\btoken\b.*\bfunction\b/),
      );
      const colours = await install.evaluate((pre) => {
        const npm = [...pre.querySelectorAll('span')].find((span) => span.textContent === 'npm')!;
        return {npm: getComputedStyle(npm).color, text: getComputedStyle(pre).color};
      });
      expect(colours.npm).not.toBe(colours.text);
      expect(errors).toEqual([]);
    });

    it('wrap long lines with the word-wrap button on a small screen, on a page opened directly', async () => {
      const {page, errors} = await browser().open('/docs/features/payments', {width: 390, height: 800});
      const blocks = page.locator('.theme-code-block');
      const scrolling = await blocks.evaluateAll((all) =>
        all.findIndex((block) => block.querySelector('pre')!.scrollWidth > block.querySelector('pre')!.clientWidth),
      );
      expect(scrolling).toBeGreaterThanOrEqual(0);
      const block = blocks.nth(scrolling);
      // The buttons come when the reader comes to the block, not while the page starts.
      expect(await block.getByRole('button').count()).toBe(0);
      await block.hover();
      const code = block.locator('pre');
      const scrolls = () => code.evaluate((pre) => pre.scrollWidth > pre.clientWidth);
      expect(await scrolls()).toBe(true);
      await block.getByRole('button', {name: /word wrap/i}).click();
      await eventually(scrolls, (value) => expect(value).toBe(false));
      expect(errors).toEqual([]);
    });

    it("reach a block's buttons from the keyboard: the code first, then its buttons", async () => {
      const {page, errors} = await browser().open('/docs');
      const block = page.locator('.theme-code-block').filter({hasText: 'npm ci'}).first();
      await block.locator('pre').focus();
      await page.keyboard.press('Tab');
      // The first of its buttons, in this block (word wrap shows only for code wider than the block).
      const focused = () =>
        page.evaluate(() => ({
          button:
            document.activeElement?.tagName === 'BUTTON' ? document.activeElement.getAttribute('aria-label') : null,
          block: document.activeElement?.closest('.theme-code-block')?.textContent?.includes('npm ci') ?? false,
        }));
      await eventually(focused, (now) =>
        expect(now).toEqual({
          button: expect.stringMatching(/^(Toggle word wrap|Copy code to clipboard)$/),
          block: true,
        }),
      );
      expect(await block.getByRole('button', {name: 'Copy code to clipboard'}).isVisible()).toBe(true);
      expect(errors).toEqual([]);
    });

    it('keep the highlighting the server rendered when a docs page is opened directly', async () => {
      const {page, errors} = await browser().open('/docs');
      await expect(
        page
          .locator('pre')
          .filter({hasText: 'npm ci'})
          .first()
          .getByText('npm', {exact: true})
          .first()
          .getAttribute('class'),
      ).resolves.toMatch(/\btoken\b.*\bfunction\b/);
      // A client that highlighted differently from the server would report a hydration mismatch.
      expect(errors).toEqual([]);
    });
  });

  describe('components', () => {
    // A few at a time, each in a tab of the pool: a page's load is mostly waiting (see jest.config.mjs).
    const pool = useTabPool(browser, 3);
    it.concurrent.each(COMPONENT_PAGES)('%s shows its live preview and its source', (url) =>
      pool.visit(url, async ({page, errors}) => {
        const preview = page.getByRole('region', {name: /^Live preview: /});
        await preview.waitFor();
        const box = await preview.boundingBox();
        expect(box!.height).toBeGreaterThan(20);
        expect(
          (await preview.innerText()).trim().length + (await preview.locator('img, svg, input, button').count()),
        ).toBeGreaterThan(0);
        // The light stage inside the dark docs.
        expect(await theme(page)).toBe('dark');
        expect(await preview.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
          'rgb(255, 255, 255)',
        );
        await page
          .getByRole('link', {name: /all components/i})
          .last()
          .waitFor();
        expect(errors).toEqual([]);
      }),
    );

    it('copies the snippet with the copy button', async () => {
      const {page} = await browser().open('/docs/components/hero', {
        prepare: async (context) => {
          await context.grantPermissions(['clipboard-read', 'clipboard-write']);
        },
      });
      const source = readFileSync(path.join(ROOT, 'docs', 'components', '_examples', 'hero.tsx'), 'utf8').trim();
      await page.getByRole('region', {name: 'Live preview: Hero'}).waitFor();
      const code = page.locator('.theme-code-block').filter({hasText: 'HeroExample'}).first();
      await code.hover();
      await code.getByRole('button', {name: /copy/i}).click();
      await eventually(
        () => page.evaluate(() => navigator.clipboard.readText()),
        (value) => expect(value).toBe(source),
      );
    });
  });

  describe('sidebar', () => {
    it('gives every item an icon and a link, and highlights the current page', async () => {
      const {page} = await browser().open('/docs/features/payments');
      const sidebar = page.getByRole('navigation', {name: 'Docs sidebar'});
      const links = sidebar.locator('a.menu__link');
      expect(await links.count()).toBeGreaterThan(45);
      const withoutIcon = await links.evaluateAll((elements) =>
        elements
          .filter((element) => getComputedStyle(element, '::before').maskImage === 'none')
          .map((element) => element.textContent),
      );
      expect(withoutIcon).toEqual([]);
      // Each icon is a file the page fetches (src/buildTime/sidebarIcon.ts): every one is there.
      const icons = await links.evaluateAll((elements) => [
        ...new Set(
          elements.map((element) => /url\("?([^")]+)"?\)/.exec(getComputedStyle(element, '::before').maskImage)![1]),
        ),
      ]);
      expect(icons.length).toBeGreaterThan(30);
      for (const icon of icons) {
        const response = await page.request.get(icon);
        expect({icon, status: response.status(), type: response.headers()['content-type']}).toEqual({
          icon,
          status: 200,
          type: expect.stringMatching(/^image\/svg\+xml/),
        });
      }
      const current = sidebar.locator('a[aria-current="page"]');
      expect(await current.textContent()).toBe('Payments');
      expect(await current.getAttribute('class')).toContain('menu__link--active');
      expect(await sidebar.getByRole('link', {name: 'Leaderboard'}).getAttribute('href')).toBe('/leaderboard');
      // The affiliate programme's page, linked only when the config runs one.
      const {affiliates} = appConfig as AppConfig;
      const affiliateLink = sidebar.getByRole('link', {name: /per sale/});
      if (affiliates) expect(await affiliateLink.getAttribute('href')).toBe(ROUTES.affiliates);
      else expect(await affiliateLink.count()).toBe(0);
    });

    it('stays in view while a long page scrolls on a wide screen', async () => {
      const {page} = await browser().open('/docs/features/payments');
      const sidebar = page.getByRole('navigation', {name: 'Docs sidebar'});
      await page.mouse.wheel(0, 3000);
      await eventually(
        () => page.evaluate(() => window.scrollY),
        (value) => expect(value).toBeGreaterThan(500),
      );
      const box = await sidebar.boundingBox();
      expect(box!.y).toBeLessThan(200);
      expect(box!.y + box!.height).toBeGreaterThan(0);
    });

    it('fills the width of a small screen when opened, with every item and its icon, and opens again once closed', async () => {
      const {page, errors} = await browser().open('/docs/features/payments', {width: 390, height: 800});
      const toggle = page.getByRole('button', {name: /toggle navigation bar/i});
      await toggle.click();
      const panel = page.locator('.navbar-sidebar');
      await eventually(
        async () => (await panel.boundingBox())?.width,
        (value) => expect(value).toBe(390),
      );
      await page.getByRole('link', {name: 'Payments', exact: true}).last().waitFor();
      const links = panel.locator('.theme-doc-sidebar-menu a.menu__link');
      expect(await links.count()).toBeGreaterThan(45);
      const withoutIcon = await links.evaluateAll((elements) =>
        elements
          .filter((element) => getComputedStyle(element, '::before').maskImage === 'none')
          .map((element) => element.textContent),
      );
      expect(withoutIcon).toEqual([]);

      await panel.getByRole('button', {name: /close navigation bar/i}).click();
      await eventually(
        () => panel.isVisible(),
        (value) => expect(value).toBe(false),
      );
      await toggle.click();
      await eventually(
        async () => (await panel.boundingBox())?.x,
        (value) => expect(value).toBe(0),
      );
      await panel.getByRole('link', {name: 'Emails', exact: true}).click();
      await page.waitForURL(/\/docs\/features\/emails$/);
      expect(errors).toEqual([]);
    });
  });
});
