import type {AdminAuditEntry, AdminLead, AdminSelfRefund, Page} from '../../../src/config/api';
import {csv} from './csv';

/** The waitlist, the buyers' own refunds and the admins' log, a page at a time, newest first. */
export const LIST_PAGE_SIZE = 50;

export async function leadsPage(db: D1Database, page: number): Promise<Page<AdminLead>> {
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(
      `SELECT email, created_at FROM leads ORDER BY created_at DESC, email LIMIT ${LIST_PAGE_SIZE} OFFSET ${(page - 1) * LIST_PAGE_SIZE}`,
    ),
    db.prepare('SELECT COUNT(*) AS total FROM leads'),
  ]);
  return {
    items: rows!.results.map((row) => ({email: row.email as string, createdAt: row.created_at as number})),
    page,
    pageSize: LIST_PAGE_SIZE,
    total: count!.results[0]!.total as number,
  };
}

/**
 * The refunds buyers made themselves, newest first, with the reasons they gave: what the seller
 * reads to learn why buyers leave, and to find a claim whose Stripe refund failed (no refund id).
 */
export async function selfRefundsPage(db: D1Database, page: number): Promise<Page<AdminSelfRefund>> {
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(
      `SELECT r.session_id, COALESCE(p.email, r.email) AS email, r.kind, r.reason, r.amount, r.currency, r.refund_id,
         r.created_at
       FROM self_refunds r LEFT JOIN purchases p ON p.session_id = r.session_id
       ORDER BY r.created_at DESC, r.session_id LIMIT ${LIST_PAGE_SIZE} OFFSET ${(page - 1) * LIST_PAGE_SIZE}`,
    ),
    db.prepare('SELECT COUNT(*) AS total FROM self_refunds'),
  ]);
  return {
    items: rows!.results.map((row) => ({
      sessionId: row.session_id as string,
      email: row.email as string | null,
      kind: row.kind as AdminSelfRefund['kind'],
      reason: row.reason as string | null,
      amount: row.amount as number | null,
      currency: row.currency as string | null,
      refundId: row.refund_id as string | null,
      at: row.created_at as number,
    })),
    page,
    pageSize: LIST_PAGE_SIZE,
    total: count!.results[0]!.total as number,
  };
}

/** Every lead as CSV, oldest first: the seller's mailing tool imports it. */
export async function leadsCsv(db: D1Database): Promise<string> {
  const {results} = await db
    .prepare('SELECT email, created_at FROM leads ORDER BY created_at, email')
    .all<{email: string; created_at: number}>();
  return csv([['email', 'created_at'], ...results.map((row) => [row.email, new Date(row.created_at).toISOString()])]);
}

export async function auditLogPage(db: D1Database, page: number): Promise<Page<AdminAuditEntry>> {
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(
      `SELECT * FROM admin_audit ORDER BY id DESC LIMIT ${LIST_PAGE_SIZE} OFFSET ${(page - 1) * LIST_PAGE_SIZE}`,
    ),
    db.prepare('SELECT COUNT(*) AS total FROM admin_audit'),
  ]);
  return {
    items: rows!.results.map((row) => ({
      id: row.id as number,
      at: row.created_at as number,
      admin: row.admin_email as string,
      action: row.action as AdminAuditEntry['action'],
      outcome: row.outcome as AdminAuditEntry['outcome'],
      sessionId: (row.session_id as string | null) ?? null,
      detail: (row.detail as string | null) ?? null,
    })),
    page,
    pageSize: LIST_PAGE_SIZE,
    total: count!.results[0]!.total as number,
  };
}
