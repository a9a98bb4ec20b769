// Places tables: reusable locations from which stops are created.
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export interface PlaceAddress {
  street: string;
  number: string | null;
  zip_code: string | null;
  city: string;
  country: string | null;
  additional_line: string | null;
}

export interface PlaceContact {
  name: string | null;
  phone_number: string | null;
  email: string | null;
  /** The recipient's e-mail language (absent on contacts stored before it existed). */
  locale?: 'en' | 'de' | null;
}

export const places = pgTable(
  'places',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    isHub: boolean('is_hub').notNull().default(false),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    address: jsonb('address').$type<PlaceAddress>().notNull(),
    contact: jsonb('contact').$type<PlaceContact>().notNull(),
    serviceAreaId: uuid('service_area_id'),
    customerId: uuid('customer_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** addressKey() of the address (contract §14: one place per normalized address and customer scope, decision 1505). */
    addressKey: text('address_key'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // NULLS NOT DISTINCT: places without a customer share one scope (migration 0015 spells it out).
    uniqueIndex('places_address_key_idx').on(t.tenantId, t.customerId, t.addressKey).where(sql`${t.addressKey} IS NOT NULL`),
    index('places_customer_idx').on(t.tenantId, t.customerId, t.id),
    index('places_service_area_idx').on(t.tenantId, t.serviceAreaId, t.id),
  ],
);
