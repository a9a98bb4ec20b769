// listReports, getReport, listReportActivity: what the caller's grants show (no implicit access, docs/api-guide.md "Reports").
import type { Deps } from '../../../deps.ts';
import { readDb } from '../../../db/replicas.ts';
import type { Actor } from '../../../http/actor.ts';
import { decodeCursor, toPage, type Page } from '../../../http/pagination.ts';
import { grantProbes } from '../access.ts';
import * as repo from '../repository.ts';
import type { ReportListFilters } from '../schemas.ts';
import { toActivityView, toReportView, type ReportView } from '../views.ts';
import { requireReport } from '../access.ts';
import { authorize } from './common.ts';

export async function listReports(deps: Deps, actor: Actor, query: { filters?: ReportListFilters; limit?: number; cursor?: string }): Promise<Page<ReportView>> {
  authorize(deps, actor, 'index');
  const limit = query.limit ?? 25;
  const [afterId] = decodeCursor(query.cursor) ?? [null];
  const rows = await repo.listReports(readDb(deps), actor.tenantId, {
    probes: grantProbes(actor),
    tags: [...new Set(query.filters?.tags ?? [])],
    afterId: typeof afterId === 'string' ? afterId : null,
    limit,
  });
  const page = toPage(rows, limit, (row) => [row.id]);
  const now = deps.clock.now();
  return { items: page.items.map((row) => toReportView(row, now)), meta: page.meta };
}

export async function getReport(deps: Deps, actor: Actor, id: string): Promise<ReportView> {
  authorize(deps, actor, 'show');
  return toReportView(requireReport(actor, await repo.findReport(deps.db, actor.tenantId, id)), deps.clock.now());
}

export async function listReportActivity(deps: Deps, actor: Actor, id: string, query: { limit?: number; cursor?: string }) {
  authorize(deps, actor, 'activity');
  requireReport(actor, await repo.findReport(deps.db, actor.tenantId, id), { manage: true });
  const limit = query.limit ?? 25;
  const [afterId] = decodeCursor(query.cursor) ?? [null];
  const rows = await repo.listActivity(deps.db, actor.tenantId, id, typeof afterId === 'string' ? afterId : null, limit);
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toActivityView), meta: page.meta };
}
