import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {appConfig, checkoutPriceId, featuredPlan, findPlanByPriceId, isTokenPage, landing, ROUTES, TOKEN_PAGES} from '../../src/config';

describe('the app config', () => {
  const plans = appConfig.stripe.plans;

  it('names the product once: the calls to action say the name the config gives', () => {
    expect(appConfig.appName.trim()).not.toBe('');
    expect(landing.hero.primaryCta).toBe(`Get ${appConfig.appName} Free`);
    expect(landing.cta.button).toBe(`Get ${appConfig.appName} Now`);
  });

  it('sells two plans, Starter and Advanced (featured), each in whole dollars under its crossed-out anchor', () => {
    expect(plans.map((plan) => [plan.name, Boolean('isFeatured' in plan && plan.isFeatured)])).toEqual([
      ['Starter', false],
      ['Advanced', true],
    ]);
    for (const plan of plans) {
      expect(Number.isInteger(plan.price) && plan.price > 0).toBe(true);
      expect(plan.priceAnchor).toBeGreaterThan(plan.price);
    }
    expect(featuredPlan().name).toBe('Advanced');
  });

  it('gives every plan its own price id in test and production mode', () => {
    const ids = plans.flatMap((plan) => [plan.priceId.test, plan.priceId.production]);
    expect(ids.every((id) => /^price_\w+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Either mode's id names the plan: the worker's key decides which one Stripe charges.
    expect(findPlanByPriceId(plans[0].priceId.test)?.name).toBe('Starter');
    expect(findPlanByPriceId(plans[0].priceId.production)?.name).toBe('Starter');
    expect(findPlanByPriceId('price_someone_elses')).toBeUndefined();
    expect(checkoutPriceId(plans[1])).toBe(plans[1].priceId.production);
  });

  it('lists features for every plan', () => {
    for (const plan of plans) {
      expect(plan.features.length).toBeGreaterThan(2);
      for (const feature of plan.features) expect(feature.name.trim()).not.toBe('');
    }
  });

  it('fills every FAQ entry, refund within 7 days included', () => {
    expect(landing.faq.items).toHaveLength(3);
    for (const item of landing.faq.items) {
      expect(item.question.trim()).not.toBe('');
      expect(item.answer.trim().length).toBeGreaterThan(20);
    }
    expect(landing.faq.items[0].answer).toMatch(/Firebase and Supabase/);
    expect(landing.faq.items[1].answer).toMatch(/7 days/);
  });

  it('fills both feature tabs, Emails first, with items and time saved', () => {
    expect(landing.features.tabs.map((tab) => tab.name)).toEqual(['Emails', 'Payments']);
    for (const tab of landing.features.tabs) {
      expect(tab.items.length).toBeGreaterThanOrEqual(3);
      for (const item of tab.items) expect(item.trim()).not.toBe('');
      expect(tab.hoursSaved).toBeGreaterThan(0);
    }
  });

  it('keeps the rules of §5: a hero headline under 10 words, a call to action that starts with a verb', () => {
    expect(landing.hero.headline.split(/\s+/).length).toBeLessThan(10);
    expect(landing.cta.button).toMatch(/^Get /);
  });

  it('lists the seven integrations of §2', () => {
    expect(landing.integrations.map((integration) => integration.role)).toEqual([
      'AI provider',
      'CSS framework',
      'Payments',
      'Backend',
      'Auth and database',
      'Analytics',
      'E-mails',
    ]);
  });

  it('names the pages that hold a token once: sign-in and its steps, the dashboard, the success page and the console', () => {
    expect([...TOKEN_PAGES].sort()).toEqual([ROUTES.signIn, ROUTES.finishSignIn, ROUTES.newPassword, ROUTES.dashboard, ROUTES.success, ROUTES.admin].sort());
    expect([`${ROUTES.dashboard}/`, ROUTES.success].every(isTokenPage)).toBe(true);
    expect([ROUTES.home, ROUTES.docs, ROUTES.terms, `${ROUTES.signIn}-help`].some(isTokenPage)).toBe(false);
  });

  it('shows the chat on no page that holds a token: it never loads there', () => {
    expect(appConfig.crisp.onlyShowOnRoutes.filter(isTokenPage)).toEqual([]);
  });

  it('imports nothing but its own files, so the worker can import it', () => {
    const dir = path.join(__dirname, '../../src/config');
    for (const file of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const imports = [...source.matchAll(/from\s+'([^']+)'/g)].map((match) => match[1]);
      expect({file, imports: imports.filter((name) => !name.startsWith('./'))}).toEqual({file, imports: []});
    }
  });
});
