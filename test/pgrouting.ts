// pgRouting on a region's extract, as an independent computation of road distances (issue 38's proof and the routing
// bench): a scratch PostgreSQL database with the pgrouting extension, loaded by osm2pgrouting with its car mapconfig.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { adminUrl } from './global-setup.ts';

const run = promisify(execFile);
const CAR_CONFIG = '/usr/share/osm2pgrouting/mapconfig_for_cars.xml';

export interface PgRouting {
  client: pg.Client;
  /** The drivable graph's vertices nearest to the points (in its largest connected part), as points. */
  snap(points: readonly { lat: number; lng: number }[]): Promise<{ id: number; lat: number; lng: number }[]>;
  /** pgr_dijkstraCostMatrix over the vertices: directed, one-way streets one way only; row-major, Infinity where none. */
  matrix(vertices: readonly number[], cost: 'length_m' | 'cost_s'): Promise<Float64Array>;
  /** The meters along pgr_dijkstra's fastest paths between the vertices (row-major). */
  fastestMeters(vertices: readonly number[]): Promise<Float64Array>;
  drop(): Promise<void>;
}

/** Why pgRouting cannot run here, or null: the suite fails on PostgreSQL runs without it (.ci/run installs it). */
export async function pgRoutingMissing(url: string): Promise<string | null> {
  const which = await run('sh', ['-c', 'command -v osm2pgrouting && command -v osmium']).catch(() => null);
  if (!which) return 'osm2pgrouting or osmium is not installed (apt-get install osm2pgrouting osmium-tool)';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'pgrouting'`);
    return rows.length ? null : 'the pgrouting extension is not installed (apt-get install postgresql-15-pgrouting)';
  } finally {
    await client.end();
  }
}

/** osm2pgrouting's car mapconfig with the given km/h per road class where a way has no maxspeed (its own are rural). */
function carConfig(speeds: Readonly<Record<string, number>>): string {
  const xml = fs.readFileSync(CAR_CONFIG, 'utf8');
  return xml.replace(/<tag_value name="([a-z_]+)"([^>]*?)maxspeed="\d+"/g, (all, name: string, rest: string) =>
    speeds[name] === undefined ? all : `<tag_value name="${name}"${rest}maxspeed="${speeds[name]}"`,
  );
}

/** Loads the extract into a new scratch database `name` next to `url`'s, with `speeds` by road class. */
export async function loadPgRouting(url: string, extract: string, name: string, speeds: Readonly<Record<string, number>>): Promise<PgRouting> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const scratchUrl = adminUrl(url, name);
  const client = new pg.Client({ connectionString: scratchUrl });
  await client.connect();
  const drop = async (): Promise<void> => {
    await client.end().catch(() => undefined);
    const a = new pg.Client({ connectionString: url });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await a.end();
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgrouting-'));
  try {
    await client.query('CREATE EXTENSION pgrouting CASCADE');
    // osm2pgrouting reads OSM XML only.
    const xml = path.join(dir, 'extract.osm');
    await run('osmium', ['cat', extract, '-o', xml, '--overwrite']);
    const config = path.join(dir, 'cars.xml');
    fs.writeFileSync(config, carConfig(speeds));
    const u = new URL(scratchUrl);
    const args = ['--f', xml, '--conf', config, '--dbname', name, '--host', u.hostname, '--port', u.port || '5432', '--username', decodeURIComponent(u.username) || 'postgres', '--clean'];
    if (u.password) args.push('--password', decodeURIComponent(u.password));
    await run('osm2pgrouting', args, { maxBuffer: 64 * 1024 * 1024 });
    // The largest connected part (undirected): a vertex on an isolated fragment would answer "no path" for nothing.
    await client.query(`CREATE TABLE main_vertices AS
      WITH parts AS (SELECT node, component FROM pgr_connectedComponents('SELECT gid AS id, source, target, length_m AS cost, length_m AS reverse_cost FROM ways')),
           biggest AS (SELECT component FROM parts GROUP BY component ORDER BY count(*) DESC LIMIT 1)
      SELECT v.id, v.lat, v.lon, v.the_geom FROM ways_vertices_pgr v JOIN parts p ON p.node = v.id JOIN biggest b USING (component)`);
    await client.query('CREATE INDEX ON main_vertices USING gist (the_geom)');
  } catch (err) {
    await drop();
    throw err;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return {
    client,
    drop,
    async snap(points) {
      const out: { id: number; lat: number; lng: number }[] = [];
      for (const p of points) {
        const { rows } = await client.query<{ id: string; lat: string; lon: string }>(
          `SELECT id, lat, lon FROM main_vertices ORDER BY the_geom <-> ST_SetSRID(ST_MakePoint($1, $2), 4326) LIMIT 1`,
          [p.lng, p.lat],
        );
        // numeric columns: pg hands them over as strings.
        out.push({ id: Number(rows[0]!.id), lat: Number(rows[0]!.lat), lng: Number(rows[0]!.lon) });
      }
      return out;
    },
    async matrix(vertices, cost) {
      const { rows } = await client.query<{ start_vid: string; end_vid: string; agg_cost: number }>(
        'SELECT start_vid, end_vid, agg_cost FROM pgr_dijkstraCostMatrix($1, $2::bigint[], directed := true)',
        [edgesSql(cost), vertices],
      );
      return square(vertices, rows);
    },
    async fastestMeters(vertices) {
      const { rows } = await client.query<{ start_vid: string; end_vid: string; agg_cost: number }>(
        `SELECT p.start_vid, p.end_vid, sum(w.length_m) AS agg_cost FROM pgr_dijkstra($1, $2::bigint[], $2::bigint[], directed := true) p
         JOIN ways w ON w.gid = p.edge GROUP BY p.start_vid, p.end_vid`,
        [edgesSql('cost_s'), vertices],
      );
      return square(vertices, rows);
    },
  };
}

/** The directed edges: osm2pgrouting marks the direction a one-way street may not be driven with a negative cost. */
function edgesSql(cost: 'length_m' | 'cost_s'): string {
  const reverse = cost === 'length_m' ? 'length_m' : 'reverse_cost_s';
  return `SELECT gid AS id, source, target, CASE WHEN cost < 0 THEN -1 ELSE ${cost} END AS cost, CASE WHEN reverse_cost < 0 THEN -1 ELSE ${reverse} END AS reverse_cost FROM ways`;
}

function square(vertices: readonly number[], rows: readonly { start_vid: string; end_vid: string; agg_cost: number }[]): Float64Array {
  const index = new Map(vertices.map((v, i) => [v, i]));
  const n = vertices.length;
  const out = new Float64Array(n * n).fill(Infinity);
  for (let i = 0; i < n; i++) out[i * n + i] = 0;
  for (const r of rows) out[index.get(Number(r.start_vid))! * n + index.get(Number(r.end_vid))!] = Number(r.agg_cost);
  return out;
}
