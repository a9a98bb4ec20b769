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

/**
 * Brings the stored rows of each kind's entries to their organizations in one statement: deletes the rows no longer
 * wanted and inserts the missing ones (the primary key makes an insert of a kept row a no-op).
 */
export async function syncVisibility(q: Queryable, tenantId: string, changes: Partial<Record<keyof typeof TABLES, readonly VisibilityEntry[]>>): Promise<void> {
  const parts = (Object.keys(TABLES) as (keyof typeof TABLES)[]).flatMap((kind, k) => {
    const entries = changes[kind] ?? [];
    if (!entries.length) return [];
    const { table, column } = TABLES[kind];
    const wanted = JSON.stringify(entries.flatMap((e) => e.organizationIds.map((organizationId) => ({ id: e.id, organization_id: organizationId }))));
    const ids = `{${entries.map((e) => e.id).join(',')}}`;
    const [w, gone, added] = [sql.identifier(`wanted_${k}`), sql.identifier(`gone_${k}`), sql.identifier(`added_${k}`)];
    return [
      sql`${w} AS (
        SELECT (w->>'id')::uuid AS id, (w->>'organization_id')::uuid AS organization_id FROM json_array_elements(${wanted}::json) w
      ), ${gone} AS (
        DELETE FROM ${table} v
         WHERE v.tenant_id = ${tenantId} AND v.${column} = ANY(${ids}::uuid[])
           AND NOT EXISTS (SELECT 1 FROM ${w} w WHERE w.id = v.${column} AND w.organization_id = v.organization_id)
      ), ${added} AS (
        INSERT INTO ${table} (tenant_id, organization_id, ${column})
        SELECT ${tenantId}, organization_id, id FROM ${w}
        ON CONFLICT DO NOTHING
      )`,
    ];
  });
  // Data-modifying CTEs run to completion whether or not the main query reads them.
  if (parts.length) await q.execute(sql`WITH ${sql.join(parts, sql`, `)} SELECT 1`);
}
