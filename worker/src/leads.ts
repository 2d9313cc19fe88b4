import {Hono} from 'hono';
import {API_PATHS, type LeadResult} from '../../src/config/api';
import type {AppEnv} from './app';
import {clientIp, readJson} from './http';
import {enforceLimit, limits} from './rateLimit';
import {leadBody} from './schemas';

/** POST /api/leads: a waitlist e-mail, stored once. 201 when new, 200 when already known. */
export const leadRoutes = new Hono<AppEnv>().post(API_PATHS.leads, async (c) => {
  await enforceLimit(c.env.DB, `leads:${clientIp(c)}`, limits.leads);
  const {email} = await readJson(c, leadBody);
  const inserted = await c.env.DB.prepare(
    `INSERT INTO leads (id, email, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (email) DO NOTHING RETURNING id`,
  )
    .bind(crypto.randomUUID(), email, Date.now())
    .first();
  return inserted
    ? c.json({stored: true} satisfies LeadResult, 201)
    : c.json({stored: false, message: 'Already on the list'} satisfies LeadResult, 200);
});
