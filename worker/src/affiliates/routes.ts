import {Hono} from 'hono';
import {AFFILIATE_WORDS, appConfig, stripeConnectOn} from '../../../src/config';
import {
  API_PATHS,
  type AffiliateAnswer,
  type AffiliateConnectAnswer,
  type AffiliateVisit,
} from '../../../src/config/api';
import {affiliateVisitBody, joinAffiliatesBody} from '../../../src/config/apiSchemas';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import {contextOf} from '../context';
import {HttpError} from '../errors';
import {clientAddress, clientIp, readJson} from '../http';
import {enforceLimit, limits} from '../rateLimit';
import {settingsOf} from '../settings';
import {affiliateAnswer} from './figures';
import {joinAffiliates} from './join';
import {programmeOr404} from './programme';
import {connectLink} from './stripeAccount';
import {recordVisit} from './visits';

/** The affiliate programme's endpoints for visitors and users; the console's are in admin/affiliates.ts. */
export const affiliateRoutes = new Hono<AppEnv>()
  /**
   * A visit through an affiliate's link (public). Exempt from the anti-forgery check and given no
   * cookie on the site's origin (sameOrigin.ts): the link sets none.
   */
  .post(API_PATHS.affiliateVisit, async (c) => {
    const programme = programmeOr404();
    await enforceLimit(c.env.DB, `affiliate-visit:${clientIp(c)}`, limits.affiliateVisit);
    const {code} = await readJson(c, affiliateVisitBody);
    const visit = await recordVisit(c.env.DB, programme, code, {
      address: clientAddress(c),
      userAgent: c.req.header('user-agent') ?? '',
    });
    return c.json(visit satisfies AffiliateVisit);
  })

  .get(API_PATHS.affiliate, requireUser, async (c) => {
    const programme = programmeOr404();
    const answer = await affiliateAnswer(contextOf(c.env), settingsOf(c.env).siteOrigin, programme, currentUser(c).uid);
    return c.json(answer satisfies AffiliateAnswer);
  })

  .post(API_PATHS.joinAffiliates, requireUser, async (c) => {
    const programme = programmeOr404();
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `join-affiliates:${user.uid}`, limits.joinAffiliates);
    const {code} = await readJson(c, joinAffiliatesBody);
    await joinAffiliates(c.env.DB, user, code);
    const answer = await affiliateAnswer(contextOf(c.env), settingsOf(c.env).siteOrigin, programme, user.uid);
    return c.json(answer satisfies AffiliateAnswer, 201);
  })

  /**
   * The affiliate's single-use Stripe link (the programme's `stripeConnect`): to set up payouts on
   * their own Express account, made once, or to its dashboard once ready. 404 when Connect is off.
   */
  .post(API_PATHS.affiliateConnect, requireUser, async (c) => {
    if (!stripeConnectOn(appConfig)) throw new HttpError(404, AFFILIATE_WORDS.connectOff, 'NOT_FOUND');
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `affiliate-connect:${user.uid}`, limits.affiliateConnect);
    const answer = await connectLink(contextOf(c.env), settingsOf(c.env).siteOrigin, user.uid);
    return c.json(answer satisfies AffiliateConnectAnswer);
  });
