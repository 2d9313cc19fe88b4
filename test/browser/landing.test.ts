import {appConfig, landing} from '../../src/config';
import {siteUrl, useBrowser} from './helpers';

describe('the landing page in Chromium', () => {
  const browser = useBrowser();

  it('shows every section in order: header, hero, problem, features, pricing, FAQ, call to action, footer', async () => {
    const {page, errors} = await browser().open('/');
    await page
      .getByRole('banner')
      .getByRole('link', {name: `${appConfig.appName} home`})
      .waitFor();

    const headings = await page.locator('main h1, main h2').allTextContents();
    expect(headings).toEqual([
      landing.hero.headline,
      landing.problem.title,
      landing.features.title,
      landing.pricing.title,
      landing.faq.title,
      landing.cta.title,
    ]);

    // Hero: both buttons, the demo, five avatars, five stars, the claim and the integrations.
    await page.getByRole('link', {name: landing.hero.primaryCta}).waitFor();
    expect(await page.getByRole('link', {name: 'Watch Demo'}).count()).toBe(2);
    const video = page.locator('video#demo');
    expect(await video.getAttribute('preload')).toBe('none');
    expect(await page.getByRole('list', {name: 'Makers who use it'}).getByRole('img').count()).toBe(5);
    await page.getByRole('img', {name: 'Rated 5 out of 5'}).waitFor();
    await page.getByText(landing.testimonials.claim).waitFor();
    for (const integration of landing.integrations) {
      await page.getByRole('img', {name: integration.name, exact: true}).waitFor();
    }

    for (const step of landing.problem.steps) await page.getByText(step.text).waitFor();
    await page.getByText(landing.problem.warning).waitFor();

    await page.getByRole('tab', {name: 'Emails', selected: true}).waitFor();
    const pricing = page.locator('#pricing');
    for (const plan of appConfig.plans) {
      await pricing
        .getByRole('article', {name: plan.name})
        .getByRole('button', {name: `Get ${appConfig.appName} ${plan.name}`})
        .waitFor();
    }
    await pricing.getByText('MOST POPULAR').waitFor();
    expect(await page.locator('#faq').getByRole('button', {expanded: false}).count()).toBe(landing.faq.items.length);
    await page.getByRole('button', {name: landing.cta.button}).waitFor();

    const footer = page.getByRole('contentinfo');
    expect(await footer.getByRole('link', {name: 'Pricing'}).getAttribute('href')).toBe('/#pricing');
    expect(await footer.getByRole('link', {name: 'Terms of Service'}).getAttribute('href')).toBe('/tos');
    expect(await footer.getByRole('link', {name: 'Privacy Policy'}).getAttribute('href')).toBe('/privacy-policy');
    expect(await footer.getByRole('link', {name: 'Support'}).getAttribute('href')).toBe(
      `mailto:${appConfig.support.email}`,
    );
    const topApps = footer.getByRole('navigation', {name: 'Top Apps'});
    for (const app of appConfig.sisterApps) {
      const link = topApps.getByRole('link', {name: app.name});
      expect(await link.getAttribute('href')).toBe(app.url);
      expect(await link.getAttribute('target')).toBe('_blank');
    }
    expect(errors).toEqual([]);
  });

  it('opens something free from its free button, and says so: the docs, free to read', async () => {
    const {page, errors} = await browser().open('/');
    const free = page.getByRole('link', {name: landing.hero.primaryCta});
    // The note under the buttons says what is free and what costs money, and describes the button.
    expect(await free.getAttribute('href')).toBe(landing.hero.primaryCtaTo);
    expect(
      await free.evaluate((link) => document.getElementById(link.getAttribute('aria-describedby')!)?.textContent),
    ).toBe(landing.hero.primaryCtaNote);
    await free.click();
    await page.waitForURL(siteUrl(landing.hero.primaryCtaTo));
    const main = page.getByRole('main');
    await main.getByRole('heading', {name: 'Get started', level: 1}).waitFor();
    await main.getByText(landing.hero.primaryCtaNote).waitFor();
    expect(errors).toEqual([]);
  });

  it.each(['Pricing', 'Features', 'FAQ'])('scrolls to the %s section from the header', async (name) => {
    const {page, errors} = await browser().open('/');
    await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name, exact: true}).click();
    const id = name.toLowerCase();
    await page.waitForURL(`**/#${id}`);
    await page.waitForFunction((target) => {
      const top = document.getElementById(target)!.getBoundingClientRect().top;
      return Math.abs(top) < 4;
    }, id);
    expect(errors).toEqual([]);
  });

  it('plays the demo, with its captions, from Watch Demo', async () => {
    const {page, errors} = await browser().open('/');
    await page.getByRole('link', {name: 'Watch Demo'}).first().click();
    await page.waitForURL('**/#demo');
    await page.waitForFunction(() => {
      const video = document.querySelector<HTMLVideoElement>('video#demo')!;
      return !video.paused && video.currentTime > 0 && video.duration > 10;
    });
    expect(await page.locator('video#demo track[kind="captions"]').getAttribute('src')).toBe(
      landing.hero.demoVideo.captions,
    );
    expect(errors).toEqual([]);
  });

  it.each([
    ['a phone', 390, 844],
    ['a laptop', 1280, 800],
  ])(
    'shows the demo poster on %s as one WebP, wide enough to be sharp and no wider than it needs, fetched first',
    async (_name, width, height) => {
      const {page, errors, requests} = await browser().open('/', {width, height});
      const poster = page.locator('img[src^="/img/demo-poster-"]');
      await poster.waitFor();
      expect(await poster.getAttribute('fetchpriority')).toBe('high');
      expect(await poster.getAttribute('loading')).toBe('eager');
      await page.waitForFunction(
        () => document.querySelector<HTMLImageElement>('img[src^="/img/demo-poster-"]')!.complete,
      );
      const shown = await poster.evaluate((image: HTMLImageElement) => ({
        file: new URL(image.currentSrc).pathname,
        needed: image.getBoundingClientRect().width * window.devicePixelRatio,
      }));
      expect(shown.file).toMatch(/^\/img\/demo-poster-\d+\.webp$/);
      // The file's own width in pixels, not the width the srcset makes it stand for.
      const pixels = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return image.naturalWidth;
      }, shown.file);
      expect(pixels).toBeGreaterThanOrEqual(shown.needed);
      const wideEnough = landing.hero.demoVideo.poster.widths.filter((candidate) => candidate >= shown.needed);
      expect(pixels).toBe(Math.min(...wideEnough));
      // The poster under the video is what the visitor sees: the video covers it exactly.
      const [image, video] = await Promise.all([poster.boundingBox(), page.locator('video#demo').boundingBox()]);
      expect(image).toEqual(video);
      expect(requests.filter((url) => url.includes('/img/demo-poster-'))).toHaveLength(1);
      expect(errors).toEqual([]);
    },
  );

  it('has a login link to /signin', async () => {
    const {page} = await browser().open('/');
    expect(
      await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'Login'}).getAttribute('href'),
    ).toBe(appConfig.auth.loginUrl);
  });

  describe('at 375 px wide', () => {
    it('opens the mobile menu, navigates from it and closes it', async () => {
      const {page, errors} = await browser().open('/', {width: 375, height: 740});
      const burger = page.getByRole('button', {name: 'Open main menu'});
      expect(await burger.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'FAQ'}).isVisible()).toBe(
        false,
      );

      await burger.click();
      expect(await burger.getAttribute('aria-expanded')).toBe('true');
      const menu = page.getByRole('navigation', {name: 'Mobile'});
      await menu.waitFor();
      await page.getByRole('button', {name: 'Close menu'}).click();
      await menu.waitFor({state: 'detached'});

      await burger.click();
      await menu.getByRole('link', {name: 'FAQ'}).click();
      await page.waitForURL('**/#faq');
      await menu.waitFor({state: 'detached'});
      expect(await burger.getAttribute('aria-expanded')).toBe('false');
      await page.waitForFunction(() => Math.abs(document.getElementById('faq')!.getBoundingClientRect().top) < 4);
      expect(errors).toEqual([]);
    });

    it.each(['/', '/success', '/tos', '/privacy-policy', '/error'])('does not scroll sideways on %s', async (path) => {
      const {page, errors} = await browser().open(path, {width: 375, height: 740});
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    });
  });

  it('rotates the features tabs every 5 s, wrapping, and stops on a click', async () => {
    const {page} = await browser().open('/', {fakeClock: true});
    const selected = () => page.getByRole('tab', {selected: true}).textContent();
    expect(await selected()).toBe('Emails');
    await page.clock.runFor(5000);
    expect(await selected()).toBe('Payments');
    await page.clock.runFor(5000);
    expect(await selected()).toBe('Emails');
    await page.getByRole('tab', {name: 'Payments'}).click();
    await page.clock.runFor(20_000);
    expect(await selected()).toBe('Payments');
  });

  it('shows a new features panel without the fade for a visitor who asks for less motion', async () => {
    const {page} = await browser().open('/');
    const fade = () => page.getByRole('tabpanel').evaluate((panel) => getComputedStyle(panel).animationName);
    expect(await fade()).not.toBe('none');
    await page.emulateMedia({reducedMotion: 'reduce'});
    await page.getByRole('tab', {name: 'Payments'}).click();
    expect(await fade()).toBe('none');
  });

  it('opens and closes a FAQ answer', async () => {
    const {page} = await browser().open('/');
    const question = page.getByRole('button', {name: landing.faq.items[1].question});
    await question.click();
    expect(await question.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByText(landing.faq.items[1].answer).isVisible()).toBe(true);
    await question.click();
    expect(await page.getByText(landing.faq.items[1].answer).isVisible()).toBe(false);
  });

  it('loads none of the seller’s console: its script and its style come with /admin only', async () => {
    const {page, requests} = await browser().open('/');
    await page.waitForLoadState('networkidle');
    const own = requests.filter((url) => url.startsWith(siteUrl('/assets/')) && /\.(js|css)$/.test(url));
    const bodies = await Promise.all(own.map(async (url) => ({url, text: await (await fetch(url)).text()})));
    // A class of the console's stylesheet, named in its CSS and in its script's class map.
    const marker = /\bdangerPrimary_/;
    expect(bodies.filter(({text}) => marker.test(text)).map(({url}) => url)).toEqual([]);
    // The marker is real: /admin's own assets carry it.
    const admin = await browser().open('/admin');
    await admin.page.waitForLoadState('networkidle');
    const adminAssets = admin.requests.filter((url) => url.startsWith(siteUrl('/assets/')) && /\.(js|css)$/.test(url));
    const adminTexts = await Promise.all(adminAssets.map(async (url) => (await fetch(url)).text()));
    expect(adminTexts.some((text) => marker.test(text))).toBe(true);
  });
});
