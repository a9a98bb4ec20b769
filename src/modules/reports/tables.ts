// Reports tables: the report (metadata, grants, the sealed file key) and its activity log (downloads and refusals).
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type ReportStatus = 'pending' | 'ready' | 'failed' | 'expired';

export type Grant =
  | { type: 'all_admins' }
  | { type: 'organization_managers'; organization_id: string }
  | { type: 'user'; user_id: string };

export const reports = pgTable(
  'reports',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    tags: text('tags').array().notNull().default([]),
    status: text('status').$type<ReportStatus>().notNull(),
    failureReason: text('failure_reason'),
    notifyByEmail: boolean('notify_by_email').notNull().default(false),
    /** Grants in the order given; a revoked grant is removed (DELETE …/grants/{index}). Matched with jsonb @>. */
    grants: jsonb('grants').$type<Grant[]>().notNull(),
    fileName: text('file_name'),
    fileContentType: text('file_content_type'),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }),
    fileSha256: text('file_sha256'),
    /** Where the encrypted file lies in the blob store; null before the file and after expiry. */
    blobKey: text('blob_key'),
    /** The file's data key sealed under the master key (`tbk1.<key id>.…`); dropped at expiry. */
    wrappedKey: text('wrapped_key'),
    expiresAt: ts('expires_at').notNull(),
    createdById: uuid('created_by_id').notNull(),
    createdAt: ts('created_at').notNull(),
    readyAt: ts('ready_at'),
    expiredAt: ts('expired_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Lists walk the primary key newest first within the tenant and test grants and tags per row (decision 0702): a
    // GIN index could not lead with tenant_id without the btree_gin extension.
    // Key rotation walks the rows still sealed under an old key.
    index('reports_wrapped_key_idx').on(t.tenantId, t.id).where(sql`${t.wrappedKey} IS NOT NULL`),
  ],
);

export type ReportActivityOutcome = 'downloaded' | 'not_visible' | 'not_ready' | 'expired' | 'corrupt';

export const reportActivity = pgTable(
  'report_activity',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    reportId: uuid('report_id').notNull(),
    userId: uuid('user_id').notNull(),
    action: text('action').$type<'download'>().notNull(),
    outcome: text('outcome').$type<ReportActivityOutcome>().notNull(),
    at: ts('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('report_activity_report_idx').on(t.tenantId, t.reportId, t.id)],
);
