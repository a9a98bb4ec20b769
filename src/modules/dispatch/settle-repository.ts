// What settling a change reads, in one statement: the tours and bookings the change reaches (its tours, the tours of
// its bookings, the bookings of those tours), their rows, their stops and their stored visibility. Six statements
// before (one per list), paid by every dispatch action in its transaction while it held its locks (docs/performance.md,
// "tourbook simulate").
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { firstRow, rowFromJson } from '../../db/json-read.ts';
import { bookings, bookingVisibility, stops, tours, tourVisibility } from './tables.ts';
import type { BookingRow } from './bookings/index.ts';
import type { StopRow } from './stops/index.ts';
import type { TourRow } from './tours/index.ts';

export interface SettleRows {
  tours: TourRow[];
  /** Stops of `tours`, by tour then tour position (as findStopsOfTours). */
  tourStops: StopRow[];
  bookings: BookingRow[];
  /** Stops of `bookings`, by booking then position (as findStopsOfBookings). */
  bookingStops: StopRow[];
  /** The stored visibility rows of `tours` and of `bookings`: organization ids by resource id (none: absent). */
  tourVisibility: Map<string, string[]>;
  bookingVisibility: Map<string, string[]>;
}

const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

function byResource(value: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [id, organizationId] of (value ?? []) as [string, string][]) {
    const list = map.get(id);
    if (list) list.push(organizationId);
    else map.set(id, [organizationId]);
  }
  return map;
}

/**
 * `= ANY (ARRAY(…))` everywhere: each list is looked up by key, whatever the plan guesses of the subquery's size.
 * Tours and bookings come in id order, as the sorted id lists the six reads took.
 */
export async function readForSettle(q: Queryable, tenantId: string, tourIds: readonly string[], bookingIds: readonly string[]): Promise<SettleRows> {
  const row = firstRow<Record<string, unknown>>(await q.execute(sql`
    WITH tour_ids AS (
      SELECT unnest(${uuidArray(tourIds)}::uuid[]) AS id
      UNION
      SELECT s.tour_id FROM ${stops} s
       WHERE s.tenant_id = ${tenantId} AND s.booking_id = ANY (${uuidArray(bookingIds)}::uuid[]) AND s.tour_id IS NOT NULL
    ), booking_ids AS (
      SELECT unnest(${uuidArray(bookingIds)}::uuid[]) AS id
      UNION
      SELECT s.booking_id FROM ${stops} s
       WHERE s.tenant_id = ${tenantId} AND s.tour_id = ANY (ARRAY(SELECT id FROM tour_ids)) AND s.booking_id IS NOT NULL
    )
    SELECT
      (SELECT coalesce(json_agg(t ORDER BY t.id), '[]'::json) FROM ${tours} t
        WHERE t.tenant_id = ${tenantId} AND t.id = ANY (ARRAY(SELECT id FROM tour_ids))) AS tours,
      (SELECT coalesce(json_agg(s ORDER BY s.tour_id, s.tour_position), '[]'::json) FROM ${stops} s
        WHERE s.tenant_id = ${tenantId} AND s.tour_id = ANY (ARRAY(SELECT id FROM tour_ids))) AS tour_stops,
      (SELECT coalesce(json_agg(b ORDER BY b.id), '[]'::json) FROM ${bookings} b
        WHERE b.tenant_id = ${tenantId} AND b.id = ANY (ARRAY(SELECT id FROM booking_ids))) AS bookings,
      (SELECT coalesce(json_agg(s ORDER BY s.booking_id, s.position), '[]'::json) FROM ${stops} s
        WHERE s.tenant_id = ${tenantId} AND s.booking_id = ANY (ARRAY(SELECT id FROM booking_ids))) AS booking_stops,
      (SELECT coalesce(json_agg(json_build_array(v.tour_id, v.organization_id)), '[]'::json) FROM ${tourVisibility} v
        WHERE v.tenant_id = ${tenantId} AND v.tour_id = ANY (ARRAY(SELECT id FROM tour_ids))) AS tour_visibility,
      (SELECT coalesce(json_agg(json_build_array(v.booking_id, v.organization_id)), '[]'::json) FROM ${bookingVisibility} v
        WHERE v.tenant_id = ${tenantId} AND v.booking_id = ANY (ARRAY(SELECT id FROM booking_ids))) AS booking_visibility`));
  const list = (value: unknown) => (value ?? []) as Record<string, unknown>[];
  return {
    tours: list(row?.tours).map((r) => rowFromJson(tours, r)),
    tourStops: list(row?.tour_stops).map((r) => rowFromJson(stops, r)),
    bookings: list(row?.bookings).map((r) => rowFromJson(bookings, r)),
    bookingStops: list(row?.booking_stops).map((r) => rowFromJson(stops, r)),
    tourVisibility: byResource(row?.tour_visibility),
    bookingVisibility: byResource(row?.booking_visibility),
  };
}
