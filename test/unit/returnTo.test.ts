import {appConfig, ROUTES} from '../../src/config';
import {returnPath, sentFrom, signInFor, withReturnPath} from '../../src/lib/auth/returnTo';

describe('where a sign-in returns', () => {
  it('returns to the page that asked, path, query and hash', () => {
    expect(returnPath('?next=%2Fadmin%3Fq%3Dada%23leads')).toBe('/admin?q=ada#leads');
    expect(withReturnPath('/signin', '/admin?q=ada')).toBe('/signin?next=%2Fadmin%3Fq%3Dada');
    expect(withReturnPath('/finish-sign-in?email=a%40b.c', '/admin')).toBe(
      '/finish-sign-in?email=a%40b.c&next=%2Fadmin',
    );
  });

  it('goes to the callback URL when nothing asked, and keeps links short for it', () => {
    expect(returnPath('')).toBe(appConfig.auth.callbackUrl);
    expect(withReturnPath('/signin', appConfig.auth.callbackUrl)).toBe('/signin');
  });

  it("carries the page through a reset link's two hops: the finish page, then the new password", () => {
    const link = withReturnPath(ROUTES.finishSignIn, withReturnPath(ROUTES.newPassword, '/admin'));
    expect(link).toBe('/finish-sign-in?next=%2Fnew-password%3Fnext%3D%252Fadmin');
    const afterFinish = returnPath(new URL(link, 'https://slipway.example').search);
    expect(afterFinish).toBe('/new-password?next=%2Fadmin');
    expect(returnPath(new URL(afterFinish, 'https://slipway.example').search)).toBe('/admin');
  });

  // The query as a crafted link writes it: URLSearchParams decodes `%09` to a tab, which the browser drops.
  it.each([
    '/%09/evil.example',
    '/%0A/evil.example',
    '/%0D/evil.example',
    '%09//evil.example',
    '/%5C/evil.example',
    '/.//evil.example',
    '//evil.example/',
  ])('never leaves the site for ?next=%s', (next) => {
    expect(returnPath(`?next=${next}`)).toBe(appConfig.auth.callbackUrl);
    expect(sentFrom(`?next=${next}`)).toBeNull();
  });

  it.each([
    '//evil.example/',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example/admin',
    'javascript:alert(1)',
  ])('never leaves the site for %j', (next) => {
    expect(returnPath(`?next=${encodeURIComponent(next)}`)).toBe(appConfig.auth.callbackUrl);
    expect(withReturnPath('/signin', next)).toBe('/signin');
    expect(signInFor(next)).toBe(appConfig.auth.loginUrl);
  });

  // A crafted link to the sign-in page that nothing can read as a page: the page goes on to the
  // default one, rather than throwing in its effect and leaving the visitor on an error screen.
  it.each([`/.//`, '/%5C', '/%5c%5c'])(
    'goes to the callback URL for %j, a path the parser cannot read again',
    (next) => {
      expect(returnPath(`?next=${encodeURIComponent(next)}`)).toBe(appConfig.auth.callbackUrl);
      expect(sentFrom(`?next=${encodeURIComponent(next)}`)).toBeNull();
      expect(signInFor(next)).toBe(appConfig.auth.loginUrl);
    },
  );

  it('hands on the page as the browser reads it, never the string as written', () => {
    expect(returnPath(`?next=${encodeURIComponent(' /ad\tmin\\..\\docs')}`)).toBe('/docs');
    expect(returnPath(`?next=${encodeURIComponent(`${window.location.origin}/admin?q=ada`)}`)).toBe('/admin?q=ada');
    expect(signInFor('/ad\tmin')).toBe('/signin?next=%2Fadmin');
  });
});
