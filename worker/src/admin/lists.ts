import type {AdminAuditEntry, AdminLead, Page} from '../../../src/config/api';

/** The waitlist and the admins' log, a page at a time, newest first. */
export const LIST_PAGE_SIZE = 50;

export async function leadsPage(db: D1Database, page: number): Promise<Page<AdminLead>> {
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT email, created_at FROM leads ORDER BY created_at DESC LIMIT ${LIST_PAGE_SIZE} OFFSET ${(page - 1) * LIST_PAGE_SIZE}`),
    db.prepare('SELECT COUNT(*) AS total FROM leads'),
  ]);
  return {
    items: rows!.results.map((row) => ({email: row.email as string, createdAt: row.created_at as number})),
    page,
    pageSize: LIST_PAGE_SIZE,
    total: count!.results[0]!.total as number,
  };
}

/** Every lead as CSV (RFC 4180), oldest first: the seller's mailing tool imports it. */
export async function leadsCsv(db: D1Database): Promise<string> {
  const {results} = await db.prepare('SELECT email, created_at FROM leads ORDER BY created_at').all<{email: string; created_at: number}>();
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return ['email,created_at', ...results.map((row) => `${cell(row.email)},${new Date(row.created_at).toISOString()}`)].join('\r\n') + '\r\n';
}

export async function auditLogPage(db: D1Database, page: number): Promise<Page<AdminAuditEntry>> {
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT * FROM admin_audit ORDER BY id DESC LIMIT ${LIST_PAGE_SIZE} OFFSET ${(page - 1) * LIST_PAGE_SIZE}`),
    db.prepare('SELECT COUNT(*) AS total FROM admin_audit'),
  ]);
  return {
    items: rows!.results.map((row) => ({
      id: row.id as number,
      at: row.created_at as number,
      admin: row.admin_email as string,
      action: row.action as AdminAuditEntry['action'],
      sessionId: (row.session_id as string | null) ?? null,
      detail: (row.detail as string | null) ?? null,
    })),
    page,
    pageSize: LIST_PAGE_SIZE,
    total: count!.results[0]!.total as number,
  };
}
