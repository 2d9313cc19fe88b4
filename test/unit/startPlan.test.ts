import {LOCAL_ADMIN_EMAIL, planStart} from '../../scripts/local/plan';

describe('which services npm start stands in for', () => {
  it('stands in for everything on a fresh clone (no keys anywhere)', () => {
    expect(planStart({}, {})).toEqual({
      local: ['sign-in', 'payments', 'github', 'email'],
      emulator: true,
      admins: LOCAL_ADMIN_EMAIL,
    });
  });

  it('uses each real service whose key is set, and only those', () => {
    expect(planStart({FIREBASE_API_KEY: 'AIza'}, {STRIPE_SECRET_KEY: 'sk_test_1', MAILGUN_API_KEY: ' '})).toEqual({
      local: ['github', 'email'],
      emulator: false,
      admins: LOCAL_ADMIN_EMAIL,
    });
  });

  it("opens the seller's console to ADMIN_EMAILS when set, and to the local admin otherwise", () => {
    expect(planStart({}, {ADMIN_EMAILS: ' ada@example.com,grace@example.com '}).admins).toBe(
      'ada@example.com,grace@example.com',
    );
    expect(planStart({}, {ADMIN_EMAILS: ''}).admins).toBe(LOCAL_ADMIN_EMAIL);
    expect(planStart({}, {ADMIN_EMAILS: 'ada@example.com'}, true).admins).toBe(LOCAL_ADMIN_EMAIL);
  });

  it('starts no Firebase emulator for a Supabase site', () => {
    expect(planStart({AUTH_PROVIDER: 'supabase'}, {GITHUB_TOKEN: 'ghp_1'})).toEqual({
      local: ['payments', 'email'],
      emulator: false,
      admins: LOCAL_ADMIN_EMAIL,
    });
  });

  it('ignores every key with --local', () => {
    const keys = {
      FIREBASE_API_KEY: 'AIza',
      AUTH_PROVIDER: 'supabase',
      STRIPE_SECRET_KEY: 'sk',
      GITHUB_TOKEN: 'g',
      MAILGUN_API_KEY: 'm',
    };
    expect(planStart(keys, keys, true)).toEqual({
      local: ['sign-in', 'payments', 'github', 'email'],
      emulator: true,
      admins: LOCAL_ADMIN_EMAIL,
    });
  });
});
