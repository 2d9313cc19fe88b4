import {DEFAULT_EMULATOR_HOST, DEFAULT_WORKER_URL, parseSiteSettings} from '../../src/buildTime/siteSettings';
import {emulatorProject} from '../../src/config';

describe('the site settings from .env', () => {
  it('builds with nothing set: the local worker, no trackers, sign-in on the emulator', () => {
    expect(parseSiteSettings({})).toEqual({
      workerUrl: DEFAULT_WORKER_URL,
      metaPixelId: '',
      gaMeasurementId: '',
      crispWebsiteId: '',
      auth: {
        provider: 'firebase',
        firebase: {
          apiKey: 'local-emulator-key',
          authDomain: `${emulatorProject}.firebaseapp.com`,
          projectId: emulatorProject,
          appId: '',
        },
        firebaseEmulatorHost: DEFAULT_EMULATOR_HOST,
        supabase: {url: '', anonKey: ''},
      },
      localMode: ['sign-in'],
    });
  });

  it("reads every setting, trimming spaces and the worker URL's trailing slash", () => {
    expect(
      parseSiteSettings({
        WORKER_URL: ' https://api.slipway.dev/ ',
        META_PIXEL_ID: '1234567890123456',
        GA_MEASUREMENT_ID: 'G-ABC123XYZ9',
        CRISP_WEBSITE_ID: '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e',
      }),
    ).toMatchObject({
      workerUrl: 'https://api.slipway.dev',
      metaPixelId: '1234567890123456',
      gaMeasurementId: 'G-ABC123XYZ9',
      crispWebsiteId: '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e',
    });
  });

  it.each(['/api', '/api/'])("takes WORKER_URL=%s as the worker on the site's own origin", (value) => {
    expect(parseSiteSettings({WORKER_URL: value}).workerUrl).toBe('/api');
  });

  it.each([
    [{WORKER_URL: 'api.slipway.dev'}, /WORKER_URL="api.slipway.dev" is not a URL/],
    [{WORKER_URL: 'ftp://api.slipway.dev'}, /WORKER_URL.*http/],
    [{WORKER_URL: '/backend'}, /WORKER_URL="\/backend": on the site's own origin the worker answers under \/api only/],
    [{META_PIXEL_ID: 'fb-123'}, /META_PIXEL_ID="fb-123" is not valid/],
    [{GA_MEASUREMENT_ID: 'UA-1234-1'}, /GA_MEASUREMENT_ID="UA-1234-1" is not valid/],
    [{CRISP_WEBSITE_ID: 'abc'}, /CRISP_WEBSITE_ID="abc" is not valid/],
    [{AUTH_PROVIDER: 'auth0'}, /AUTH_PROVIDER="auth0" must be "firebase" or "supabase"/],
    [{AUTH_PROVIDER: 'supabase'}, /needs SUPABASE_URL and SUPABASE_ANON_KEY/],
    [
      {FIREBASE_AUTH_EMULATOR_HOST: 'http://localhost'},
      /FIREBASE_AUTH_EMULATOR_HOST="http:\/\/localhost" is not valid/,
    ],
    [{LOCAL_MODE: 'payments,stripe'}, /LOCAL_MODE names "stripe"/],
  ])('stops the build with a message naming the bad value: %p', (env, message) => {
    expect(() => parseSiteSettings(env)).toThrow(message);
  });

  it('uses a real Firebase project once its key is set, and the emulator only when asked', () => {
    const real = parseSiteSettings({
      FIREBASE_API_KEY: 'AIzaReal',
      FIREBASE_PROJECT_ID: 'slipway-prod',
      FIREBASE_APP_ID: '1:2:web:3',
    });
    expect(real.auth).toMatchObject({
      firebase: {
        apiKey: 'AIzaReal',
        projectId: 'slipway-prod',
        authDomain: 'slipway-prod.firebaseapp.com',
        appId: '1:2:web:3',
      },
      firebaseEmulatorHost: '',
    });
    expect(real.localMode).toEqual([]);
    expect(
      parseSiteSettings({FIREBASE_API_KEY: 'AIzaReal', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9199'}).auth
        .firebaseEmulatorHost,
    ).toBe('127.0.0.1:9199');
  });

  it('switches to Supabase with its URL and anon key, and then no Firebase emulator is named', () => {
    const settings = parseSiteSettings({
      AUTH_PROVIDER: 'supabase',
      SUPABASE_URL: 'https://abc.supabase.co/',
      SUPABASE_ANON_KEY: 'anon',
    });
    expect(settings.auth).toMatchObject({
      provider: 'supabase',
      supabase: {url: 'https://abc.supabase.co', anonKey: 'anon'},
    });
    expect(settings.localMode).toEqual([]);
  });

  it('lists the services npm start stands in for, in a fixed order', () => {
    expect(parseSiteSettings({LOCAL_MODE: 'email, payments,github'}).localMode).toEqual([
      'sign-in',
      'payments',
      'github',
      'email',
    ]);
  });
});
