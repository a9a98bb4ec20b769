// Region tables (migration 0015, decision 1501): installation-wide, no tenant_id — the operator imports a region and
// every tenant reads it. Every import step's rows are keyed by region_id.
import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

export const regions = pgTable(
  'regions',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    minLat: doublePrecision('min_lat').notNull(),
    minLng: doublePrecision('min_lng').notNull(),
    maxLat: doublePrecision('max_lat').notNull(),
    maxLng: doublePrecision('max_lng').notNull(),
    /** The file it was imported from, as given to the command. */
    source: text('source').notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Every step's counts, merged (addresses, streets, road_nodes, …): GET /api/regions reads them from here. */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [unique('regions_name_key').on(t.name)],
);

/** House numbers: OSM address nodes, buildings (their centroid) and points interpolated along addr:interpolation lines. */
export const regionAddresses = pgTable(
  'region_addresses',
  {
    regionId: uuid('region_id').notNull(),
    id: integer('id').notNull(),
    street: text('street').notNull(),
    /** normalizeStreet(street) */
    streetKey: text('street_key').notNull(),
    number: text('number').notNull(),
    /** normalizeNumber(number) */
    numberKey: text('number_key').notNull(),
    zipCode: text('zip_code'),
    city: text('city'),
    country: text('country'),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    /** node | building | interpolation */
    origin: text('origin').notNull(),
  },
  (t) => [primaryKey({ name: 'region_addresses_pkey', columns: [t.regionId, t.id] }), index('region_addresses_street_idx').on(t.streetKey, t.numberKey)],
);

/** Named streets: one row per street name and locality, at a point on the street. */
export const regionStreets = pgTable(
  'region_streets',
  {
    regionId: uuid('region_id').notNull(),
    id: integer('id').notNull(),
    name: text('name').notNull(),
    streetKey: text('street_key').notNull(),
    zipCode: text('zip_code'),
    city: text('city'),
    country: text('country'),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
  },
  (t) => [primaryKey({ name: 'region_streets_pkey', columns: [t.regionId, t.id] }), index('region_streets_key_idx').on(t.streetKey)],
);

/** Cities (admin_level 8 boundaries) and postcodes (postal_code boundaries, else the addresses'), at their centre. */
export const regionLocalities = pgTable(
  'region_localities',
  {
    regionId: uuid('region_id').notNull(),
    id: integer('id').notNull(),
    /** city | postcode */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    zipCode: text('zip_code'),
    city: text('city'),
    country: text('country'),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
  },
  (t) => [primaryKey({ name: 'region_localities_pkey', columns: [t.regionId, t.id] }), index('region_localities_key_idx').on(t.nameKey)],
);
