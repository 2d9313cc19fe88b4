import {Hono} from 'hono';
import {API_PATHS, type LeadResult} from '../../src/config/api';
import type {AppEnv} from './app';
import {clientIp, readJson} from './http';
import {enforceLimit, limitedWrite, limits} from './rateLimit';
import {leadBody} from '../../src/config/apiSchemas';

/**
 * POST /api/leads: a waitlist e-mail, stored once. 201 when new, 200 when already known; 5 a
 * minute per address. A valid lead costs one D1 round trip: the count and the insert go together.
 */
export const leadRoutes = new Hono<AppEnv>().post(API_PATHS.leads, async (c) => {
  const key = `leads:${clientIp(c)}`;
  let email: string;
  try {
    ({email} = await readJson(c, leadBody));
  } catch (refusal) {
    // A refused body counts against the limit too, and a caller over it hears 429 first.
    await enforceLimit(c.env.DB, key, limits.leads);
    throw refusal;
  }
  const inserted = await limitedWrite(c.env.DB, key, limits.leads, {
    sql: (hasRoom) => `INSERT INTO leads (id, email, created_at) SELECT ?1, ?2, ?3 WHERE ${hasRoom}
       ON CONFLICT (email) DO NOTHING RETURNING id`,
    params: [crypto.randomUUID(), email, Date.now()],
  });
  return inserted
    ? c.json({stored: true} satisfies LeadResult, 201)
    : c.json({stored: false, message: 'Already on the list'} satisfies LeadResult, 200);
});
