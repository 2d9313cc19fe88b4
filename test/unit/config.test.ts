import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {
  affiliateProblems,
  affiliateProgramme,
  appConfig,
  type AppConfig,
  checkoutPriceId,
  dashboardPlan,
  extraRepositoriesAdded,
  extraRepositoryKeys,
  featuredPlan,
  findPlanByPriceId,
  findStoredPlan,
  isTokenPage,
  landing,
  type Plan,
  planFeatureNames,
  planPriceIds,
  ROUTES,
  storedPlanName,
  TOKEN_PAGES,
} from '../../src/config';

describe('the app config', () => {
  const plans = appConfig.plans;

  it("holds the affiliate programme's figures in bounds, and a typo turns the programme off rather than overpay", () => {
    expect(affiliateProblems()).toEqual([]);
    expect(affiliateProgramme()).toBe(appConfig.affiliates);
    const typo: AppConfig = {
      ...appConfig,
      affiliates: {commissionPercent: 300, referralDays: 60.5, disputeDays: -1},
    };
    expect(affiliateProblems(typo)).toEqual([
      'affiliates.commissionPercent is 300: it must be a whole number from 1 to 100',
      'affiliates.referralDays is 60.5: it must be a whole number from 1 to 365',
      'affiliates.disputeDays is -1: it must be a whole number from 0 to 365',
    ]);
    expect(affiliateProgramme(typo)).toBeUndefined();
    // No programme is no problem.
    expect(affiliateProblems({...appConfig, affiliates: undefined})).toEqual([]);
  });

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

  it("gives every plan its own price id in test and production mode, and a team's price ids of their own", () => {
    // A team's own price for each seat is a price of its own: an id shared with another plan's
    // would make a purchase of one read as the other.
    const ids = (plans as readonly Plan[]).flatMap(planPriceIds);
    expect(ids.length).toBeGreaterThan(plans.length * 2);
    expect(ids.every((id) => /^price_\w+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const plan of plans as readonly Plan[]) {
      const team = plan.team?.seatPrice;
      if (!team) continue;
      expect(Number.isInteger(team.price) && team.price > 0).toBe(true);
      expect(findPlanByPriceId(team.priceId.test)).toBe(plan);
      expect(findPlanByPriceId(team.priceId.production)).toBe(plan);
    }
    // Either mode's id names the plan: the worker's key decides which one Stripe charges.
    expect(findPlanByPriceId(plans[0].priceId.test)?.name).toBe('Starter');
    expect(findPlanByPriceId(plans[0].priceId.production)?.name).toBe('Starter');
    expect(findPlanByPriceId('price_someone_elses')).toBeUndefined();
    expect(checkoutPriceId(plans[1])).toBe(plans[1].priceId.production);
  });

  it("gives every plan a stable id of its own, by which a purchase's record finds it (or by the name recorded before ids)", () => {
    const ids = plans.map((plan) => plan.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const plan of plans) {
      expect(findStoredPlan(plan.id)).toBe(plan);
      expect(findStoredPlan(plan.name)).toBe(plan);
      expect(storedPlanName(plan.id)).toBe(plan.name);
    }
    // A plan since removed from the config still reads as what was recorded.
    expect(storedPlanName('retired-plan')).toBe('retired-plan');
    expect(storedPlanName(null)).toBeNull();
  });

  it('sells on the dashboard the plan marked for it, wherever the list puts it, else the featured one', () => {
    const [starter, advanced] = plans;
    expect(dashboardPlan()).toBe(advanced);
    expect(dashboardPlan([advanced, starter]).name).toBe(advanced.name);
    expect(
      dashboardPlan([
        {...starter, soldOnDashboard: true},
        {...advanced, soldOnDashboard: false},
      ]).name,
    ).toBe(starter.name);
    expect(dashboardPlan([starter, {...advanced, soldOnDashboard: false}]).name).toBe(featuredPlan().name);
  });

  it('grants the prompts repository with Advanced only, and every key a plan names is described for buyers', () => {
    const [starter, advanced] = plans;
    expect(extraRepositoryKeys(starter)).toEqual([]);
    expect(extraRepositoryKeys(advanced)).toEqual(['prompts']);
    expect(extraRepositoriesAdded(starter, advanced)).toEqual(['prompts']);
    const described = appConfig.extraRepositories as Record<string, {name: string; holds: string}>;
    for (const key of plans.flatMap((plan) => extraRepositoryKeys(plan))) {
      expect(described[key]?.name.trim()).toBeTruthy();
      expect(described[key]?.holds.trim()).toBeTruthy();
      // The worker's grants table keys the kit's own repository 'kit' (migration 0028): no extra may share it.
      expect(key).not.toBe('kit');
    }
  });

  it('lists features for every plan', () => {
    for (const plan of plans) {
      expect(planFeatureNames(plan).length).toBeGreaterThan(2);
      for (const feature of plan.features) expect(feature.name.trim()).not.toBe('');
    }
  });

  it('fills every FAQ entry, refund within 7 days included', () => {
    // Three of the config's, and the team answer for the plan sold for teams (teamFaq).
    expect(landing.faq.items).toHaveLength(4);
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

  it('names the pages that hold a token once: sign-in and its steps, the dashboard, the success page, the console and the affiliate page', () => {
    expect([...TOKEN_PAGES].sort()).toEqual(
      [
        ROUTES.signIn,
        ROUTES.finishSignIn,
        ROUTES.newPassword,
        ROUTES.dashboard,
        ROUTES.success,
        ROUTES.admin,
        ROUTES.affiliates,
      ].sort(),
    );
    expect([`${ROUTES.dashboard}/`, ROUTES.success].every(isTokenPage)).toBe(true);
    expect([ROUTES.home, ROUTES.docs, ROUTES.terms, `${ROUTES.signIn}-help`].some(isTokenPage)).toBe(false);
  });

  it('shows the chat on no page that holds a token: it never loads there', () => {
    expect(appConfig.crisp.onlyShowOnRoutes.filter(isTokenPage)).toEqual([]);
  });

  it('names its keys after what they hold: a vendor names only its own settings', () => {
    // The support address, the senders and the plans are the product's, whichever service carries
    // them; Crisp's key holds only where Crisp's bubble shows.
    const vendors = new Set<string>([
      ...landing.integrations.map((integration) => integration.icon),
      'crisp',
      'lemonsqueezy',
    ]);
    expect(Object.keys(appConfig).filter((key) => vendors.has(key.toLowerCase()))).toEqual(['crisp']);
    expect(appConfig.support.email).toBe(`support@${appConfig.domainName}`);
  });

  it("names the plans' currency once, in PLAN_CURRENCY: the site, the worker and the local stand-ins read it there", () => {
    const root = path.join(__dirname, '../..');
    const spelled = ['src', 'worker/src', 'scripts'].flatMap((dir) =>
      (readdirSync(path.join(root, dir), {recursive: true}) as string[])
        .filter((file) => /\.tsx?$/.test(file))
        .map((file) => path.join(dir, file))
        .filter(
          (file) =>
            file !== path.join('src', 'config', 'plans.ts') &&
            /['"`]usd['"`]/i.test(readFileSync(path.join(root, file), 'utf8')),
        ),
    );
    expect(spelled).toEqual([]);
  });

  it('imports nothing but its own files and zod, so the worker can import it', () => {
    const dir = path.join(__dirname, '../../src/config');
    for (const file of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const imports = [...source.matchAll(/from\s+'([^']+)'/g)].map((match) => match[1]);
      // zod: the contract's schemas (apiSchemas.ts), which the worker validates with; the site takes
      // only their types (.dependency-cruiser.cjs, site-takes-only-types-of-the-schemas).
      const outside = imports.filter((name) => !name.startsWith('./') && name !== 'zod');
      expect({file, imports: outside}).toEqual({file, imports: []});
    }
  });
});
