// The region's vector tiles (decision 1540): one row per tile as tilemaker wrote it (gzip-compressed Mapbox Vector
// Tile), keyed in XYZ (the MBTiles file's TMS row flipped at import), read by the tile route.
import { customType, index, integer, pgTable, primaryKey, smallint, uuid } from 'drizzle-orm/pg-core';
import { regions } from '../tables.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const regionTiles = pgTable(
  'region_tiles',
  {
    /** The region the tile was imported for; replacing or deleting the region deletes them (the step's remove, the cascade). */
    regionId: uuid('region_id')
      .notNull()
      .references(() => regions.id, { onDelete: 'cascade' }),
    z: smallint('z').notNull(),
    x: integer('x').notNull(),
    /** XYZ row (0 at the north), not MBTiles' TMS row. */
    y: integer('y').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.z, t.x, t.y, t.regionId] }), index('region_tiles_region_idx').on(t.regionId)],
);
