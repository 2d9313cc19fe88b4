import {Hono} from 'hono';
import {bodyLimit} from 'hono/body-limit';
import {appConfig} from '../../../src/config';
import type {AppEnv} from '../app';
import {HttpError} from '../errors';
import {log} from '../log';
import {settingsOf} from '../settings';
import {escapeHtml as escape} from './notes';
import {addressOfToken} from './unsubscribeLink';

/**
 * `/api/unsubscribe/<token>`, the link in the List-Unsubscribe header of every e-mail that is
 * not the buyer's business: release e-mails, and the one reminder of a checkout left unpaid
 * (payments/checkoutReminders.ts). POST (the mail provider's one-click, RFC 8058, or the page's
 * button) unsubscribes the address the token names from both, with no sign-in; it is idempotent.
 * GET only shows the page with that button: a link scanner that opens every URL of an e-mail
 * unsubscribes nobody. Receipts and access e-mails still go out.
 */
export const unsubscribeRoutes = new Hono<AppEnv>()
  .use(bodyLimit({maxSize: 1024}))
  .get('/:token', async (c) => {
    const email = await addressOf(c.env, c.req.param('token'));
    return c.html(
      page(
        'Stop these e-mails?',
        `<p>Stop e-mails about ${escape(appConfig.appName)} to ${escape(email)}: news of releases, and a reminder of a checkout left unpaid? Receipts and access e-mails still come.</p>
<form method="post"><button type="submit">Unsubscribe</button></form>`,
      ),
    );
  })
  .post('/:token', async (c) => {
    const email = await addressOf(c.env, c.req.param('token'));
    await c.env.DB.prepare(
      'INSERT INTO release_unsubscribes (email, created_at) VALUES (?1, ?2) ON CONFLICT (email) DO NOTHING',
    )
      .bind(email, Date.now())
      .run();
    log.info('releases.unsubscribed', {});
    return c.html(
      page(
        'Unsubscribed',
        `<p>${escape(email)} gets no more news of releases or reminders from ${escape(appConfig.appName)}. Receipts and access e-mails still come.</p>`,
      ),
    );
  });

async function addressOf(env: Env, token: string): Promise<string> {
  const secret = settingsOf(env).UNSUBSCRIBE_SECRET;
  if (!secret) throw new HttpError(503, 'Unsubscribe links are not configured (UNSUBSCRIBE_SECRET)', 'NOT_CONFIGURED');
  const email = await addressOfToken(secret, token);
  if (!email)
    throw new HttpError(
      404,
      'This unsubscribe link is not valid. Write to support to be taken off the list.',
      'NOT_FOUND',
    );
  return email;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head><body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
}
