import {appConfig, ROUTES} from '../../src/config';
import {returnPath, withReturnPath} from '../../src/lib/auth/returnTo';

describe('where a sign-in returns', () => {
  it('returns to the page that asked, path, query and hash', () => {
    expect(returnPath('?next=%2Fadmin%3Fq%3Dada%23leads')).toBe('/admin?q=ada#leads');
    expect(withReturnPath('/signin', '/admin?q=ada')).toBe('/signin?next=%2Fadmin%3Fq%3Dada');
    expect(withReturnPath('/finish-sign-in?email=a%40b.c', '/admin')).toBe('/finish-sign-in?email=a%40b.c&next=%2Fadmin');
  });

  it('goes to the callback URL when nothing asked, and keeps links short for it', () => {
    expect(returnPath('')).toBe(appConfig.auth.callbackUrl);
    expect(withReturnPath('/signin', appConfig.auth.callbackUrl)).toBe('/signin');
  });

  it('carries the page through a reset link\'s two hops: the finish page, then the new password', () => {
    const link = withReturnPath(ROUTES.finishSignIn, withReturnPath(ROUTES.newPassword, '/admin'));
    expect(link).toBe('/finish-sign-in?next=%2Fnew-password%3Fnext%3D%252Fadmin');
    const afterFinish = returnPath(new URL(link, 'https://slipway.example').search);
    expect(afterFinish).toBe('/new-password?next=%2Fadmin');
    expect(returnPath(new URL(afterFinish, 'https://slipway.example').search)).toBe('/admin');
  });

  it.each(['//evil.example/', '/\\evil.example', 'https://evil.example/admin', 'javascript:alert(1)', 'admin', '/admin\\..\\x'])(
    'never leaves the site for %p',
    (next) => {
      expect(returnPath(`?next=${encodeURIComponent(next)}`)).toBe(appConfig.auth.callbackUrl);
      expect(withReturnPath('/signin', next)).toBe('/signin');
    },
  );
});
