// The road graph table (migration 0016, decision 1520): a region's drivable graph as one binary value, loaded whole
// into memory by the process that routes in it (network.ts).
import { customType, integer, pgTable, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const regionRoadGraphs = pgTable('region_road_graphs', {
  regionId: uuid('region_id').primaryKey(),
  nodes: integer('nodes').notNull(),
  edges: integer('edges').notNull(),
  /** encodeRoadGraph's bytes. */
  data: bytea('data').notNull(),
});
