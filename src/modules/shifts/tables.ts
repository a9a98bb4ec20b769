// Shifts: when a driver works, where its tour starts and ends, and what its vehicle carries (docs/api-guide.md "Optimising tours and planning dispatch").
import { doublePrecision, index, jsonb, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A shift's vehicle as given: absent members are constraints not applied. */
export interface ShiftVehicle {
  capacity: { packages?: number; weight_kg?: number; volume_l?: number };
  skills: string[];
}

export const driverShifts = pgTable(
  'driver_shifts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    driverId: uuid('driver_id').notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    startPlaceId: uuid('start_place_id'),
    startLat: doublePrecision('start_lat').notNull(),
    startLng: doublePrecision('start_lng').notNull(),
    endPlaceId: uuid('end_place_id'),
    endLat: doublePrecision('end_lat'),
    endLng: doublePrecision('end_lng'),
    vehicle: jsonb('vehicle').$type<ShiftVehicle>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('driver_shifts_driver_idx').on(t.tenantId, t.driverId, t.startsAt, t.id)],
);
