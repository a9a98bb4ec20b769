// The finished stops delivery analytics count (contract §17), as SQL the analytics module aggregates: dispatch's tables
// stay dispatch's, and the manager's visibility is the list reads' rule (tour_visibility, docs/api-guide.md "Who sees what").
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';

export interface FinishedStopsScope {
  tenantId: string;
  /** The period, `from` included, `to` excluded, over completed_at / failed_at (decision 1743). */
  from: Date;
  to: Date;
  serviceAreaId: string | null;
  /** Stops of tours this organization sees (as its managers would). */
  organizationId: string | null;
  /** A manager's organizations: only stops of tours they see; null for an admin (the whole tenant). */
  visibleToOrganizationIds: readonly string[] | null;
  stopType: string | null;
}

const uuids = (ids: readonly string[]) => `{${ids.join(',')}}`;

/**
 * One row per stop on a tour that completed or failed in the period: its facts and its tour's. One scan with the two
 * periods OR-ed: a short period reads both partial indexes (stops_completed_at_idx, stops_failed_at_idx) as one bitmap,
 * a long one the table once — two branches read a year's stops twice, the failed ones page by page (decision 1778).
 */
export function finishedStopsSql(scope: FinishedStopsScope): SQL {
  const from = scope.from.toISOString();
  const to = scope.to.toISOString();
  const tourFilter = sql.join(
    [
      sql`tr.tenant_id = s.tenant_id AND tr.id = s.tour_id`,
      scope.serviceAreaId ? sql`tr.service_area_id = ${scope.serviceAreaId}::uuid` : sql`true`,
      scope.organizationId
        ? sql`EXISTS (SELECT 1 FROM tour_visibility v WHERE v.tenant_id = tr.tenant_id AND v.tour_id = tr.id AND v.organization_id = ${scope.organizationId}::uuid)`
        : sql`true`,
      scope.visibleToOrganizationIds
        ? sql`EXISTS (SELECT 1 FROM tour_visibility v WHERE v.tenant_id = tr.tenant_id AND v.tour_id = tr.id AND v.organization_id = ANY (${uuids(scope.visibleToOrganizationIds)}::uuid[]))`
        : sql`true`,
    ],
    sql` AND `,
  );
  const type = scope.stopType ? sql`AND s.type = ${scope.stopType}` : sql``;
  const columns = sql`s.id AS stop_id, s.type, s.status, s.tour_id, tr.driver_id, tr.service_area_id, tr.started_at AS tour_started_at,
    tr.completed_at AS tour_completed_at, s.time_window_ends_at AS window_ends_at, s.arrived_at, s.recovery_of_stop_id, s.failure ->> 'reason_key' AS reason_key`;
  return sql`SELECT ${columns}, CASE WHEN s.status = 'completed' THEN s.completed_at ELSE s.failed_at END AS finished_at
      FROM stops s JOIN tours tr ON ${tourFilter}
     WHERE s.tenant_id = ${scope.tenantId}::uuid ${type}
       AND ((s.status = 'completed' AND s.completed_at IS NOT NULL AND s.completed_at >= ${from}::timestamptz AND s.completed_at < ${to}::timestamptz)
         OR (s.status = 'failed' AND s.failed_at IS NOT NULL AND s.failed_at >= ${from}::timestamptz AND s.failed_at < ${to}::timestamptz))`;
}

/** The tenant's tours as `tour_id`, `driver_id`, `tour_started_at`, `tour_completed_at`: joined to stops grouped without them. */
export function tourFactsSql(tenantId: SQL): SQL {
  return sql`SELECT tr.id AS tour_id, tr.driver_id, tr.started_at AS tour_started_at, tr.completed_at AS tour_completed_at
      FROM tours tr WHERE tr.tenant_id = ${tenantId}`;
}

export interface TourActuals {
  stopsCompleted: number;
  stopsFailed: number;
  /** The last stop's completion or failure once the tour completed; null while it runs. */
  finishAt: Date | null;
}

/** What happened on a tour: its finished stops and, once completed, when it finished (planned against actual). */
export async function tourActuals(q: Queryable, tenantId: string, tourId: string): Promise<TourActuals> {
  const [row] = await queryRows<{ completed: number; failed: number; finish_at: string | Date | null }>(
    q,
    sql`SELECT count(*) FILTER (WHERE s.status = 'completed')::int AS completed, count(*) FILTER (WHERE s.status = 'failed')::int AS failed,
               CASE WHEN tr.status = 'completed' THEN coalesce(max(coalesce(s.completed_at, s.failed_at)), tr.completed_at) END AS finish_at
          FROM tours tr LEFT JOIN stops s ON s.tenant_id = tr.tenant_id AND s.tour_id = tr.id
         WHERE tr.tenant_id = ${tenantId}::uuid AND tr.id = ${tourId}::uuid
         GROUP BY tr.status, tr.completed_at`,
  );
  return { stopsCompleted: row?.completed ?? 0, stopsFailed: row?.failed ?? 0, finishAt: row?.finish_at ? new Date(row.finish_at) : null };
}
