// Reading regions: the list, and which region serves a point (the smallest imported box that contains it).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';

export interface Region {
  id: string;
  name: string;
  bbox: { min_lat: number; min_lng: number; max_lat: number; max_lng: number };
  importedAt: Date;
  /** Every import step's counts (addresses, streets, road_nodes, road_edges, …). */
  counts: Record<string, number>;
}

interface RegionRecord {
  id: string;
  name: string;
  min_lat: number;
  min_lng: number;
  max_lat: number;
  max_lng: number;
  imported_at: Date | string;
  counts: Record<string, number> | string;
}

const toRegion = (row: RegionRecord): Region => ({
  id: row.id,
  name: row.name,
  bbox: { min_lat: Number(row.min_lat), min_lng: Number(row.min_lng), max_lat: Number(row.max_lat), max_lng: Number(row.max_lng) },
  importedAt: new Date(row.imported_at),
  counts: typeof row.counts === 'string' ? (JSON.parse(row.counts) as Record<string, number>) : row.counts,
});

const COLUMNS = sql`id, name, min_lat, min_lng, max_lat, max_lng, imported_at, counts`;

export async function listRegions(q: Queryable): Promise<Region[]> {
  return (await queryRows<RegionRecord>(q, sql`SELECT ${COLUMNS} FROM regions ORDER BY name`)).map(toRegion);
}

/** The region whose box contains the point; the smallest when boxes overlap (a city inside a country extract). */
export async function regionContaining(q: Queryable, point: { lat: number; lng: number }): Promise<Region | null> {
  return regionForPoints(q, [point]);
}

/** The one region whose box contains every point (the smallest such), or null: points are served by one region. */
export async function regionForPoints(q: Queryable, points: readonly { lat: number; lng: number }[]): Promise<Region | null> {
  if (points.length === 0) return null;
  let minLat = Infinity;
  let minLng = Infinity;
  let maxLat = -Infinity;
  let maxLng = -Infinity;
  for (const { lat, lng } of points) {
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
    minLng = Math.min(minLng, lng);
    maxLng = Math.max(maxLng, lng);
  }
  const [row] = await queryRows<RegionRecord>(
    q,
    sql`SELECT ${COLUMNS} FROM regions WHERE min_lat <= ${minLat} AND max_lat >= ${maxLat} AND min_lng <= ${minLng} AND max_lng >= ${maxLng}
      ORDER BY (max_lat - min_lat) * (max_lng - min_lng), imported_at DESC LIMIT 1`,
  );
  return row ? toRegion(row) : null;
}
