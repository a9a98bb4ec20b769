// Busyness table: the last computed busyness per service area, so an event goes out only when the step changes.
import { integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

export const busynessLevels = pgTable(
  'busyness_levels',
  {
    tenantId: uuid('tenant_id').notNull(),
    serviceAreaId: uuid('service_area_id').notNull(),
    busyness: integer('busyness').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.serviceAreaId] })],
);
