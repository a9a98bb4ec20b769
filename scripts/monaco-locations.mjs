// Writes src/simulate/monaco-locations.json, the places of `tourbook simulate --city monaco`, from the demo region
// (regions/monaco.osm.pbf, © OpenStreetMap contributors, ODbL): every house address inside Monaco's national
// boundary, then one point on each named street there (the middle node of its longest way). Needs Debian's
// osmium-tool. Run: node scripts/monaco-locations.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PBF = path.join(root, 'regions', 'monaco.osm.pbf');
const OUT = path.join(root, 'src', 'simulate', 'monaco-locations.json');
// GeoJSON text sequences (RFC 8142) start each record with ASCII RS.
const RECORD_SEPARATOR = String.fromCharCode(0x1e);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'monaco-locations-'));

/** The features of `osmium tags-filter <filter>` exported as GeoJSON. */
function features(filter, geometryTypes) {
  const filtered = path.join(dir, 'filtered.osm.pbf');
  const exported = path.join(dir, 'filtered.geojsonseq');
  execFileSync('osmium', ['tags-filter', PBF, ...filter, '-o', filtered, '--overwrite']);
  execFileSync('osmium', ['export', filtered, '-f', 'geojsonseq', '-o', exported, '--overwrite', `--geometry-types=${geometryTypes}`]);
  return fs
    .readFileSync(exported, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line.startsWith(RECORD_SEPARATOR) ? line.slice(1) : line));
}

/** Ray casting over every ring of a MultiPolygon (holes included: an odd count of crossings is inside). */
function inside([lng, lat], multiPolygon) {
  let crossings = 0;
  for (const polygon of multiPolygon.coordinates)
    for (const ring of polygon)
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i];
        const [xj, yj] = ring[j];
        if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) crossings++;
      }
  return crossings % 2 === 1;
}

/** A point of a feature: a node's own, else the mean of its outer ring or line. */
function pointOf(geometry) {
  if (geometry.type === 'Point') return geometry.coordinates;
  const ring = geometry.type === 'LineString' ? geometry.coordinates : geometry.type === 'Polygon' ? geometry.coordinates[0] : geometry.coordinates[0][0];
  return [ring.reduce((s, c) => s + c[0], 0) / ring.length, ring.reduce((s, c) => s + c[1], 0) / ring.length];
}

const round = (n) => Number(n.toFixed(6));
try {
  const monaco = features(['r/admin_level=2'], 'polygon').find((f) => f.properties['ISO3166-1'] === 'MC');
  if (!monaco) throw new Error("no admin_level=2 boundary with ISO3166-1=MC in the extract");
  const houses = new Map();
  for (const f of features(['nw/addr:housenumber'], 'point,polygon')) {
    const p = f.properties;
    const at = pointOf(f.geometry);
    if (!p['addr:street'] || !inside(at, monaco.geometry)) continue;
    const location = { lat: round(at[1]), lng: round(at[0]), street: p['addr:street'], number: p['addr:housenumber'], ...(p['addr:postcode'] ? { zip_code: p['addr:postcode'] } : {}) };
    houses.set(`${location.street}|${location.number}`, location);
  }
  const streets = new Map();
  const drivable = 'w/highway=primary,secondary,tertiary,unclassified,residential,living_street';
  for (const f of features([drivable], 'linestring')) {
    const name = f.properties.name;
    const line = f.geometry.coordinates;
    const middle = line[Math.floor(line.length / 2)];
    if (!name || !inside(middle, monaco.geometry)) continue;
    if ((streets.get(name)?.nodes ?? 0) < line.length) streets.set(name, { nodes: line.length, location: { lat: round(middle[1]), lng: round(middle[0]), street: name } });
  }
  const byName = (a, b) => a.street.localeCompare(b.street, 'fr') || (a.number ?? '').localeCompare(b.number ?? '', 'fr', { numeric: true });
  const locations = [...[...houses.values()].sort(byName), ...[...streets.values()].map((s) => s.location).sort(byName)];
  const source = 'regions/monaco.osm.pbf (© OpenStreetMap contributors, ODbL 1.0): house addresses, then one point per named street, inside Monaco';
  fs.writeFileSync(OUT, JSON.stringify({ source, locations }) + '\n');
  console.log(`${OUT}: ${houses.size} house addresses, ${streets.size} streets`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
