// The stored visibility rows (decision 0300) of bookings and tours, brought to what the rules decided: one statement
// for all the resources a change settles, touching only the rows that differ. Settling rewrote every row before (a
// DELETE and an INSERT per resource): ~100 statements for an optimised 50-booking tour whose visibility did not change.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { bookingVisibility, tourVisibility } from './tables.ts';

const TABLES = {
  booking: { table: bookingVisibility, column: sql.identifier(bookingVisibility.bookingId.name) },
  tour: { table: tourVisibility, column: sql.identifier(tourVisibility.tourId.name) },
} as const;

export interface VisibilityEntry {
  id: string;
  organizationIds: readonly string[];
}

/** Deletes the rows no longer wanted and inserts the missing ones (the primary key makes an insert of a kept row a no-op). */
export async function syncVisibility(q: Queryable, kind: keyof typeof TABLES, tenantId: string, entries: readonly VisibilityEntry[]): Promise<void> {
  if (!entries.length) return;
  const { table, column } = TABLES[kind];
  const wanted = JSON.stringify(entries.flatMap((e) => e.organizationIds.map((organizationId) => ({ id: e.id, organization_id: organizationId }))));
  const ids = `{${entries.map((e) => e.id).join(',')}}`;
  await q.execute(sql`
    WITH wanted AS (
      SELECT (w->>'id')::uuid AS id, (w->>'organization_id')::uuid AS organization_id FROM json_array_elements(${wanted}::json) w
    ), gone AS (
      DELETE FROM ${table} v
       WHERE v.tenant_id = ${tenantId} AND v.${column} = ANY(${ids}::uuid[])
         AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.id = v.${column} AND w.organization_id = v.organization_id)
    )
    INSERT INTO ${table} (tenant_id, organization_id, ${column})
    SELECT ${tenantId}, organization_id, id FROM wanted
    ON CONFLICT DO NOTHING`);
}
