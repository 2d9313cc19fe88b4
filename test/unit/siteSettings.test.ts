import {DEFAULT_WORKER_URL, parseSiteSettings} from '../../src/lib/siteSettings';

describe('the site settings from .env', () => {
  it('builds with nothing set: the local worker, test prices, no trackers', () => {
    expect(parseSiteSettings({})).toEqual({
      workerUrl: DEFAULT_WORKER_URL,
      stripeMode: 'test',
      metaPixelId: '',
      gaMeasurementId: '',
      crispWebsiteId: '',
    });
  });

  it('reads every setting, trimming spaces and the worker URL\'s trailing slash', () => {
    expect(
      parseSiteSettings({
        WORKER_URL: ' https://api.slipway.dev/ ',
        STRIPE_MODE: 'production',
        META_PIXEL_ID: '1234567890123456',
        GA_MEASUREMENT_ID: 'G-ABC123XYZ9',
        CRISP_WEBSITE_ID: '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e',
      }),
    ).toEqual({
      workerUrl: 'https://api.slipway.dev',
      stripeMode: 'production',
      metaPixelId: '1234567890123456',
      gaMeasurementId: 'G-ABC123XYZ9',
      crispWebsiteId: '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e',
    });
  });

  it.each([
    [{WORKER_URL: 'api.slipway.dev'}, /WORKER_URL="api.slipway.dev" is not a URL/],
    [{WORKER_URL: 'ftp://api.slipway.dev'}, /WORKER_URL.*http/],
    [{STRIPE_MODE: 'live'}, /STRIPE_MODE="live" must be "test" or "production"/],
    [{META_PIXEL_ID: 'fb-123'}, /META_PIXEL_ID="fb-123" is not valid/],
    [{GA_MEASUREMENT_ID: 'UA-1234-1'}, /GA_MEASUREMENT_ID="UA-1234-1" is not valid/],
    [{CRISP_WEBSITE_ID: 'abc'}, /CRISP_WEBSITE_ID="abc" is not valid/],
  ])('stops the build with a message naming the bad value: %p', (env, message) => {
    expect(() => parseSiteSettings(env)).toThrow(message);
  });
});
