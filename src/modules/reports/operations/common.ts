// What every reports operation shares: the access check, the key ring, grant validation, expiry and notification.
import type { Readable } from 'node:stream';
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { AppError, forbidden, invalidFields } from '../../../http/errors.ts';
import { MASTER_KEY_MISSING, masterKeyRingFor } from '../../../crypto/master-key.ts';
import type { MasterKey } from '../../../crypto/key-wrap.ts';
import { enqueueMail } from '../../../mail/index.ts';
import { scheduleJob } from '../../../worker/jobs.ts';
import type { JobKind } from '../../../worker/job-kinds.ts';
import { findOrganizations, findUser, grantAudience } from '../../identity/index.ts';
import { audienceOf, granteesSeenBy, grantErrors } from '../access.ts';
import { mayOnReports, type ReportAction } from '../permissions.ts';
import type { ReportRow } from '../repository.ts';
import type { Grant } from '../tables.ts';

export const REPORT_EXPIRY_JOB: JobKind = 'reports.expire';

/** The role check, then the master key: without one (a server deployment lacking REPORTS_MASTER_KEY) nothing works. */
export function authorize(deps: Deps, actor: Actor, action: ReportAction): MasterKey[] {
  if (!mayOnReports(actor, action)) throw forbidden();
  const ring = masterKeyRingFor(deps.config);
  if (!ring.length) throw new AppError(503, 'reports_unavailable', MASTER_KEY_MISSING);
  return ring;
}

/** 422 naming the grant's pointer when the caller may not grant it or it names nobody the caller knows. */
export async function checkGrants(tx: Tx, actor: Actor, grants: readonly Grant[]): Promise<void> {
  const orgIds = [...new Set(grants.flatMap((g) => (g.type === 'organization_managers' ? [g.organization_id] : [])))];
  const userIds = [...new Set(grants.flatMap((g) => (g.type === 'user' ? [g.user_id] : [])))];
  const organizations = new Set((await findOrganizations(tx, actor.tenantId, orgIds)).map((o) => o.id));
  const users = (await Promise.all(userIds.map((id) => findUser(tx, actor.tenantId, id)))).filter((u) => u && !u.deactivatedAt);
  const visible = await granteesSeenBy(tx, actor, users.map((u) => u!.id));
  const errors = grantErrors(actor, grants, { organizationIds: organizations, visibleUserIds: new Set(visible) });
  if (errors.length) {
    const notAllowed = errors.some((e) => e.code === 'not_allowed');
    if (notAllowed) throw new AppError(422, 'grant_not_allowed', 'You may not share a report with this audience.', errors);
    throw invalidFields(errors);
  }
}

export async function scheduleExpiry(tx: Tx, tenantId: string, reportId: string, expiresAt: Date, now: Date): Promise<void> {
  await scheduleJob(tx, { tenantId, kind: REPORT_EXPIRY_JOB, payload: { report_id: reportId }, dueAt: expiresAt, now, dedupeKey: reportId });
}

/** One e-mail per distinct person the grants reach at this moment, with the title and a link, never the file. */
export async function notifyReady(deps: Deps, tx: Tx, row: ReportRow): Promise<void> {
  if (!row.notifyByEmail) return;
  const people = await grantAudience(tx, row.tenantId, audienceOf(row.grants));
  const base = deps.config.publicUrl ?? `http://${deps.config.host}:${deps.config.port}`;
  const link = `${base.replace(/\/+$/, '')}/api/reports/${row.id}/download`;
  for (const person of people) {
    if (!person.email) {
      deps.log.info({ report_id: row.id, user_id: person.id }, 'report notification skipped: the user has no e-mail address');
      continue;
    }
    await enqueueMail(tx, {
      tenantId: row.tenantId,
      to: [person.email],
      subject: `Report ready: ${row.title}`,
      text: `The report "${row.title}" is ready.\n\nDownload it (sign in with your Tourbook credentials): ${link}\n\nIt is available until ${row.expiresAt.toISOString()}.\n`,
      now: deps.clock.now(),
    });
  }
}

/**
 * The request's upload, read when called: operations call it after their access checks, so a caller who may not
 * upload (403) or may not see the report (404) is refused before a byte of a multipart body is read (issue 28).
 */
export type Upload<T> = () => Promise<T>;

/** A file as it arrives: from `content_base64` or a multipart part, always as a stream. */
export interface IncomingFile {
  name: string;
  contentType: string;
  stream: Readable;
}
