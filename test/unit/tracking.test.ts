import {initAnalytics, webVitalEvent} from '../../src/lib/tracking/analytics';
import {CRISP_SCRIPT, initCrisp, isChatPath, openChat, updateChatVisibility} from '../../src/lib/tracking/crisp';
import {initPixel, PIXEL_SCRIPT, trackCheckoutClicked, trackPageView} from '../../src/lib/tracking/pixel';

const scripts = () => [...document.querySelectorAll('script')].map((script) => script.src);

afterEach(() => {
  document.head.innerHTML = '';
  for (const name of ['fbq', '_fbq', 'gtag', 'dataLayer', '$crisp', 'CRISP_WEBSITE_ID'] as const) delete window[name];
  window.history.replaceState(null, '', '/');
});

describe('with no ids configured', () => {
  it('loads nothing and defines nothing', () => {
    initPixel('');
    initAnalytics('');
    initCrisp('', ['/']);
    trackPageView('http://localhost/');
    trackCheckoutClicked();
    updateChatVisibility('/');
    openChat();
    expect(scripts()).toEqual([]);
    expect([window.fbq, window.gtag, window.$crisp]).toEqual([undefined, undefined, undefined]);
  });
});

describe('the Meta pixel', () => {
  it('loads once and queues init, PageView with the url, and CheckoutButtonClicked', () => {
    initPixel('1234567890');
    initPixel('1234567890');
    trackPageView('https://slipway.dev/#pricing');
    trackCheckoutClicked();
    expect(scripts()).toEqual([PIXEL_SCRIPT]);
    expect(window.fbq!.queue).toEqual([
      ['init', '1234567890'],
      ['track', 'PageView', {url: 'https://slipway.dev/#pricing'}],
      ['trackCustom', 'CheckoutButtonClicked'],
    ]);
  });
});

describe('Google Analytics web vitals', () => {
  // jsdom has no Performance Timeline; web-vitals reads it once loaded.
  beforeAll(() => {
    if (!performance.getEntriesByType)
      Object.defineProperty(performance, 'getEntriesByType', {value: () => [], configurable: true});
  });

  it('loads gtag.js for the measurement id and configures it', () => {
    initAnalytics('G-ABC123XYZ9');
    expect(scripts()).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9']);
    const calls = window.dataLayer!.map((entry) => [...(entry as IArguments)]);
    expect(calls[1]).toEqual(['config', 'G-ABC123XYZ9']);
  });

  it.each([
    ['LCP', 1234.56, 1235],
    ['INP', 87.4, 87],
    ['CLS', 0.1234, 123],
    ['PageLoadTime', 2045.5, 2046],
  ] as const)('sends %s %d as a rounded, non-interaction web_vitals event', (name, value, rounded) => {
    expect(webVitalEvent(name, value)).toEqual({
      event_category: 'Web Vitals',
      event_label: name,
      value: rounded,
      non_interaction: true,
    });
  });
});

describe('the Crisp chat', () => {
  const id = '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e';

  it.each([
    ['/', ['/'], true],
    ['/docs', ['/'], false],
    ['/pricing/', ['/pricing'], true],
    ['/tos', ['/', '/privacy-policy'], false],
  ])('%s with allowed paths %p: shown %p', (pathname, allowed, shown) => {
    expect(isChatPath(pathname, allowed)).toBe(shown);
  });

  it('loads with the site id, shows on allowed paths and hides elsewhere', () => {
    initCrisp(id, ['/']);
    expect(scripts()).toEqual([CRISP_SCRIPT]);
    expect(window.CRISP_WEBSITE_ID).toBe(id);
    updateChatVisibility('/');
    updateChatVisibility('/docs');
    expect(window.$crisp!.slice(1)).toEqual([
      ['do', 'chat:show'],
      ['do', 'chat:hide'],
    ]);
  });

  it('hides the chat again when the visitor closes it on a page where it does not belong', () => {
    initCrisp(id, ['/']);
    const [[, event, onClosed]] = window.$crisp! as [[string, string, () => void]];
    expect(event).toBe('chat:closed');

    window.history.replaceState(null, '', '/error');
    openChat();
    window.$crisp!.length = 1;
    onClosed();
    expect(window.$crisp!.slice(1)).toEqual([['do', 'chat:hide']]);

    window.history.replaceState(null, '', '/');
    window.$crisp!.length = 1;
    onClosed();
    expect(window.$crisp!.slice(1)).toEqual([]);
  });
});
