import {Hono} from 'hono';
import {serviceName} from '../../src/config/serviceName';
import {bodyLimit} from 'hono/body-limit';
import {cors} from 'hono/cors';
import {secureHeaders} from 'hono/secure-headers';
import {accessRoutes} from './access/routes';
import {downloadRoutes} from './access/download';
import {isAdminRoutes} from './admin/isAdminRoute';
import {adminRoutes} from './admin/routes';
import {affiliateRoutes} from './affiliates/routes';
import {authRoutes} from './auth/routes';
import {analyticsRoutes} from './analytics';
import {API_PATHS, SAME_ORIGIN_PREFIX, XSRF_HEADER} from '../../src/config/api';
import type {AppEnv} from './app';
import {errorBody, onError} from './errors';
import {leadRoutes} from './leads';
import {openApiRoutes} from './openApi';
import {sameOrigin, servedFromAssets} from './sameOrigin';
import {paymentRoutes} from './payments/routes';
import {priceRoutes} from './payments/prices';
import {receiptRoutes} from './payments/receipts';
import {emulatorOnLoopback, settingsOf} from './settings';
import {githubWebhook} from './releases/webhook';
import {releaseRoutes} from './releases/routes';
import {upgradeRoutes} from './upgrades/routes';
import {teamRoutes} from './team/routes';
import {unsubscribeRoutes} from './releases/unsubscribe';
import {mailgunWebhook} from './webhooks/mailgun';
import {mailgunEvents} from './webhooks/mailgunEvents';
import {stripeWebhook} from './webhooks/stripe';

/**
 * Every route of the worker, mounted: payments, webhooks, repository access, leads and the
 * analytics proxy, routed by Hono (small, typed, made for Workers). Each one is stated in the
 * contract (src/config/contract.ts), and test/worker/contract.test.ts holds the two to each other.
 */
// The routes the browser calls, mounted twice below: at the worker's root (the worker on its own
// origin) and under SAME_ORIGIN_PREFIX (the worker on the site's origin).
const api = new Hono<AppEnv>();
api.use('*', bodyLimit({maxSize: 16 * 1024}));
api.route(API_PATHS.plausible, analyticsRoutes);
api.route('/', paymentRoutes);
api.route('/', receiptRoutes);
api.route('/', priceRoutes);
api.route('/', accessRoutes);
api.route('/', teamRoutes);
api.route('/', downloadRoutes);
api.route('/', releaseRoutes);
api.route('/', upgradeRoutes);
api.route('/', affiliateRoutes);
api.route('/', authRoutes);
api.route('/', leadRoutes);
api.route('/', isAdminRoutes);
api.route('/', adminRoutes);
api.route('/', openApiRoutes);
api.get('/', (c) => c.json({name: `${serviceName}-worker`, ok: true}));

// Not strict: `/api/` is the same as `/api`, the health check the site asks for a first token.
export const app = new Hono<AppEnv>({strict: false});

// Every answer of the worker's own (JSON, the analytics proxy, errors, CORS preflights) loads
// nothing and may be framed by nobody. Hono's secure-headers, which ships with Hono: its defaults,
// but for three that do not fit here. Cross-Origin-Resource-Policy: the site loads the analytics
// proxy's script from the worker's origin when the two are apart. Strict-Transport-Security:
// whether a domain and its subdomains are HTTPS-only is the domain owner's choice, and on one
// origin it would come from the API's answers alone. Cross-Origin-Opener-Policy: no answer is a page.
// The site's pages, when this Worker serves them, get the build's `_headers` instead.
const apiHeaders = secureHeaders({
  contentSecurityPolicy: {defaultSrc: ["'none'"], frameAncestors: ["'none'"]},
  xFrameOptions: 'DENY',
  crossOriginResourcePolicy: false,
  strictTransportSecurity: false,
  crossOriginOpenerPolicy: false,
});
// Hono types a `use` handler's context with an `any` input, which its own middleware takes as is.
// eslint-disable-next-line @typescript-eslint/no-unsafe-argument
app.use('*', (c, next) => (servedFromAssets(c.env, c.req.path) ? next() : apiHeaders(c, next)));
app.use('*', emulatorOnLoopback);

app.use('*', async (c, next) => {
  const origin = settingsOf(c.env).siteOrigin;
  return cors({
    origin: (requestOrigin) => (requestOrigin === origin ? origin : null),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', XSRF_HEADER],
    maxAge: 600,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- as above: Hono's Context<any>
  })(c, next);
});
app.use('*', sameOrigin);
// Webhooks, once, at their own paths (already under /api): registered before the mounts, they
// answer before the body limit runs, and read their own raw bodies with their own limits.
app.route(API_PATHS.stripeWebhook, stripeWebhook);
app.route(API_PATHS.mailgunWebhook, mailgunWebhook);
app.route(API_PATHS.mailgunEvents, mailgunEvents);
app.route(API_PATHS.githubWebhook, githubWebhook);
app.route(API_PATHS.releaseUnsubscribe, unsubscribeRoutes);
app.route(SAME_ORIGIN_PREFIX, api);
app.route('/', api);
app.notFound((c) => c.json(errorBody(`No route for ${c.req.method} ${c.req.path}`), 404));
app.onError(onError);
