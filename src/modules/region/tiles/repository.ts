// The region_tiles table (decision 1540): written by the import step in batches, read one tile at a time.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { queryRows } from '../../../db/sql.ts';
import { forgetTiles } from './cache.ts';
import type { Tile } from './mbtiles.ts';

/** Rows per INSERT: ~300 tiles of a few kB each keeps a statement well under a megabyte or two. */
const BATCH = 100;

export async function replaceTiles(q: Queryable, regionId: string, tiles: readonly Tile[]): Promise<void> {
  await deleteTiles(q, regionId);
  for (let i = 0; i < tiles.length; i += BATCH) {
    const rows = tiles.slice(i, i + BATCH).map((t) => sql`(${regionId}, ${t.z}, ${t.x}, ${t.y}, ${Buffer.from(t.data)})`);
    await q.execute(sql`INSERT INTO region_tiles (region_id, z, x, y, data) VALUES ${sql.join(rows, sql`, `)}`);
  }
  // deleteTiles forgot the old ones; a tile read while the new ones went in was read as missing.
  forgetTiles();
}

export async function deleteTiles(q: Queryable, regionId: string): Promise<void> {
  await q.execute(sql`DELETE FROM region_tiles WHERE region_id = ${regionId}`);
  forgetTiles();
}

/** One tile; where two regions hold the same tile, either serves (regions do not overlap in practice; decision 1540). */
export async function readTile(q: Queryable, z: number, x: number, y: number): Promise<Uint8Array | null> {
  const rows = await queryRows<{ data: Uint8Array }>(q, sql`SELECT data FROM region_tiles WHERE z = ${z} AND x = ${x} AND y = ${y} LIMIT 1`);
  return rows[0]?.data ?? null;
}

/** What the tiles cover: zoom range and, at the lowest zoom, the tile columns and rows — null when there are none. */
export async function tileCoverage(q: Queryable): Promise<{ minzoom: number; maxzoom: number; z: number; minX: number; maxX: number; minY: number; maxY: number } | null> {
  const [range] = await queryRows<{ minzoom: number | null; maxzoom: number | null }>(q, sql`SELECT min(z)::int AS minzoom, max(z)::int AS maxzoom FROM region_tiles`);
  if (!range || range.minzoom === null || range.maxzoom === null) return null;
  const [box] = await queryRows<{ min_x: number; max_x: number; min_y: number; max_y: number }>(
    q,
    sql`SELECT min(x)::int AS min_x, max(x)::int AS max_x, min(y)::int AS min_y, max(y)::int AS max_y FROM region_tiles WHERE z = ${range.maxzoom}`,
  );
  return { minzoom: range.minzoom, maxzoom: range.maxzoom, z: range.maxzoom, minX: box!.min_x, maxX: box!.max_x, minY: box!.min_y, maxY: box!.max_y };
}
