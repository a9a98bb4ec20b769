// How a report and its activity render on the wire (docs/api-guide.md "Reports").
import { iso } from '../../shared/time.ts';
import type { ActivityRow, ReportRow } from './repository.ts';
import { effectiveStatus } from './report-machine.ts';

export function toReportView(row: ReportRow, now: Date) {
  const status = effectiveStatus(row, now);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    tags: row.tags,
    status,
    failure_reason: row.failureReason,
    notify_by_email: row.notifyByEmail,
    grants: row.grants,
    file:
      row.fileName && row.fileContentType && row.fileSizeBytes !== null && row.fileSha256
        ? { name: row.fileName, content_type: row.fileContentType, size_bytes: row.fileSizeBytes, sha256: row.fileSha256 }
        : null,
    expires_at: iso(row.expiresAt),
    created_by_id: row.createdById,
    created_at: iso(row.createdAt),
    ready_at: row.readyAt ? iso(row.readyAt) : null,
  };
}
export type ReportView = ReturnType<typeof toReportView>;

export const toActivityView = (row: ActivityRow) => ({ id: row.id, user_id: row.userId, action: row.action, outcome: row.outcome, at: iso(row.at) });
