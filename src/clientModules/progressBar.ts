/**
 * The thin bar the classic theme shows while a slow client-side navigation loads (nprogress).
 * nprogress marks it up with role="bar", which is no ARIA role (axe: aria-roles, critical), and
 * finds it by that role. The bar only decorates, so it gets no role, and is found by its class.
 * nprogress keeps one set of settings, so this holds whichever of it and the theme's own
 * configure({showSpinner: false}) runs first.
 */
import nprogress from 'nprogress';

nprogress.configure({template: '<div class="bar"><div class="peg"></div></div>', barSelector: '.bar'});
