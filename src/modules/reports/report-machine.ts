// The report state machine (docs/api-guide.md "Reports"): none → ready | pending; pending → ready | failed; any → expired.
import type { ReportStatus } from './tables.ts';

export type ReportEvent = 'complete' | 'fail' | 'expire';

const TRANSITIONS: Record<ReportEvent, Partial<Record<ReportStatus, ReportStatus>>> = {
  complete: { pending: 'ready' },
  fail: { pending: 'failed' },
  // Expiry ends every report, whatever its state; an expired report stays expired.
  expire: { pending: 'expired', ready: 'expired', failed: 'expired' },
};

/** The next state, or null when the event is not allowed from `from`. */
export const nextStatus = (from: ReportStatus, event: ReportEvent): ReportStatus | null => TRANSITIONS[event][from] ?? null;

/** A report past its expiry behaves as expired even before the worker has visited it. */
export const effectiveStatus = (report: { status: ReportStatus; expiresAt: Date }, now: Date): ReportStatus =>
  report.expiresAt.getTime() <= now.getTime() ? 'expired' : report.status;
