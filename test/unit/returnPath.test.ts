/** @jest-environment node */
// Node's URL, as the worker's (workerd) and the browser's: the WHATWG parser, whose reading is the point.
import {sitePath, siteUrl} from '../../src/config';

const SITE = 'https://slipway.example';

describe('a path to return to, read as the browser will read it', () => {
  it.each([
    ['a page', '/admin', '/admin'],
    ['a page with its query and hash', '/admin?q=ada#leads', '/admin?q=ada#leads'],
    ['an absolute URL on the site, handed on as its path', `${SITE}/dashboard?tab=code`, '/dashboard?tab=code'],
    ['leading spaces, which the parser trims', '  /admin', '/admin'],
    ['a relative name, resolved from the site root', 'admin', '/admin'],
    ['backslashes inside the path, read as slashes and resolved', '/admin\\..\\docs', '/docs'],
    ['`https:` with no slashes, which stays on an https site', 'https:docs', '/docs'],
    ['an encoded slash, which neither the parser nor the router decodes', '/%2F/evil.example', '/%2F/evil.example'],
    ['a query that merely holds two slashes', '/search?q=//evil.example', '/search?q=//evil.example'],
    ['a sign-in whose own next= is a page of the site', '/signin?next=%2Fadmin', '/signin?next=%2Fadmin'],
  ])('follows %s', (_label, value, path) => {
    expect(sitePath(value, SITE)).toBe(path);
  });

  it.each([
    ['a tab after the first slash (`?next=/%09/evil.example`)', '/\t/evil.example'],
    ['a newline after the first slash (`?next=/%0A/evil.example`)', '/\n/evil.example'],
    ['a carriage return after the first slash', '/\r/evil.example'],
    ['CR LF after the first slash', '/\r\n/evil.example'],
    ['a tab between two slashes at the start', '\t//evil.example'],
    ['two slashes (protocol-relative)', '//evil.example'],
    ['three slashes', '///evil.example'],
    ['a slash and a backslash', '/\\evil.example'],
    ['two backslashes after a slash', '/\\\\evil.example'],
    ['a backslash and a slash', '\\/evil.example'],
    ['leading spaces before two slashes', '  //evil.example'],
    ['a NUL before two slashes', '\u0000//evil.example'],
    ['another site', 'https://evil.example/admin'],
    ['`http:` with no slashes on an https site (another host)', 'http:evil.example'],
    ['credentials that look like the site', 'https://slipway.example@evil.example/'],
    ['a host that starts like the site', 'https://slipway.example.evil.example/'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: in mixed case', 'JaVaScRiPt:alert(document.domain)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a dot segment that leaves the path starting with two slashes', '/.//evil.example'],
    ['a double-dot segment that does the same', '/admin/..//evil.example'],
    ['an encoded backslash, which the router decodes (`%5C`)', '/%5C/evil.example'],
    ['an encoded tab, which the router decodes (`%09`)', '/%09/evil.example'],
    ['an encoded newline, which the router decodes (`%0A`)', '/%0a/evil.example'],
    ['a malformed escape, which the router cannot decode', '/%E0'],
    ['a dot segment that leaves only two slashes, which reads again as no URL at all (never a throw)', '/.//'],
    ['an encoded backslash alone, which the router decodes to two slashes and no host (never a throw)', '/%5C'],
    ['a sign-in whose own next= leaves the site (a tab)', '/signin?next=%2F%09%2Fevil.example'],
    [
      'a reset link whose next= two hops down leaves the site',
      '/finish-sign-in?next=%2Fnew-password%3Fnext%3D%252F%250A%252Fevil.example',
    ],
  ])('refuses %s', (_label, value) => {
    expect(sitePath(value, SITE)).toBeNull();
  });
});

describe('a URL the worker hands Stripe to return to', () => {
  it('is the whole URL as the browser will follow it, on the site', () => {
    expect(siteUrl(`${SITE}/success`, SITE)).toBe(`${SITE}/success`);
    expect(siteUrl(` ${SITE}/dash\tboard?x=1#y`, SITE)).toBe(`${SITE}/dashboard?x=1#y`);
  });

  it.each([
    ['a path alone: the caller names the whole URL', '/success'],
    ['another site', 'https://evil.example/success'],
    ['a tab that makes the path another host', `${SITE}/\t/evil.example`],
    ['a path that starts with two slashes after a dot segment', `${SITE}/.//evil.example`],
    ['a path the parser cannot read again (never a throw: the worker answers 400)', `${SITE}/.//`],
    ['an encoded backslash the router decodes to no host (never a throw)', `${SITE}/%5C`],
    ['a page of the site whose next= leaves it (the cancel URL lure)', `${SITE}/signin?next=/%09/evil.example`],
    ['the same, with a newline', `${SITE}/signin?next=/%0A/evil.example`],
    ['not a URL', 'not a url'],
  ])('refuses %s', (_label, value) => {
    expect(siteUrl(value, SITE)).toBeNull();
  });
});
