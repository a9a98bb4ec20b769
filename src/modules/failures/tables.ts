// Failures tables: each tenant's package failure reasons (seeded on tenant creation, edited by admins).
import { index, boolean, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const packageFailureReasons = pgTable(
  'package_failure_reasons',
  {
    tenantId: uuid('tenant_id').notNull(),
    key: text('key').notNull(),
    labelEn: text('label_en').notNull(),
    labelDe: text('label_de').notNull(),
    stopTypes: text('stop_types').array().notNull(),
    packageInteractions: text('package_interactions').array().notNull(),
    noteRequired: boolean('note_required').notNull(),
    triggersReattempt: boolean('triggers_reattempt').notNull(),
    /** Display order: seeded reasons keep the catalogue's order, new ones go last. */
    position: integer('position').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index('package_failure_reasons_position_idx').on(t.tenantId, t.position)],
);
