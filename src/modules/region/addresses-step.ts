// The addresses step of a region import: house numbers, interpolated numbers, named streets, cities and postcodes
// from OSM (issue 37). Postcode and city come from the object's own addr:* tags, else from the boundary relation
// that contains it (admin_level 8 communes; a city-state's admin_level 2 country, as Monaco; postal_code areas).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { normalizeNumber, normalizeStreet } from '../../shared/address.ts';
import { bulkInsert, type BulkColumn } from './bulk-insert.ts';
import { contains, meanPoint, pointAlong, relationPolygon, ringCentroid, wayPoints, type LatLng, type Polygon } from './geometry.ts';
import type { OsmData, OsmTags } from './osm-data.ts';

/** Ways a car or a walker reaches an address by (OSM's highway values); tracks, paths and steps are not addresses. */
const STREET_HIGHWAYS = new Set([
  'motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'living_street', 'service',
  'motorway_link', 'trunk_link', 'primary_link', 'secondary_link', 'tertiary_link', 'road', 'pedestrian', 'footway', 'steps',
]);

interface Area {
  polygon: Polygon;
  name: string;
  zip: string | null;
  country: string | null;
}

interface Located {
  zip: string | null;
  city: string | null;
  country: string | null;
}

interface AddressRow extends LatLng {
  street: string;
  number: string;
  zip: string | null;
  city: string | null;
  country: string | null;
  origin: 'node' | 'building' | 'interpolation';
}

const ADDRESS_COLUMNS: BulkColumn[] = [
  ['region_id', 'uuid'], ['id', 'integer'], ['street', 'text'], ['street_key', 'text'], ['number', 'text'], ['number_key', 'text'],
  ['zip_code', 'text'], ['city', 'text'], ['country', 'text'], ['lat', 'double precision'], ['lng', 'double precision'], ['origin', 'text'],
];
const STREET_COLUMNS: BulkColumn[] = [
  ['region_id', 'uuid'], ['id', 'integer'], ['name', 'text'], ['street_key', 'text'], ['zip_code', 'text'], ['city', 'text'],
  ['country', 'text'], ['lat', 'double precision'], ['lng', 'double precision'],
];
const LOCALITY_COLUMNS: BulkColumn[] = [
  ['region_id', 'uuid'], ['id', 'integer'], ['kind', 'text'], ['name', 'text'], ['name_key', 'text'], ['zip_code', 'text'],
  ['city', 'text'], ['country', 'text'], ['lat', 'double precision'], ['lng', 'double precision'],
];

export const addressesStep = {
  name: 'addresses',
  async run(q: Queryable, regionId: string, osm: OsmData): Promise<Record<string, number>> {
    const extracted = extractAddresses(osm);
    let id = 0;
    await bulkInsert(q, 'region_addresses', ADDRESS_COLUMNS, extracted.addresses.map((a) => ({
      region_id: regionId, id: ++id, street: a.street, street_key: normalizeStreet(a.street), number: a.number, number_key: normalizeNumber(a.number),
      zip_code: a.zip, city: a.city, country: a.country, lat: a.lat, lng: a.lng, origin: a.origin,
    })));
    id = 0;
    await bulkInsert(q, 'region_streets', STREET_COLUMNS, extracted.streets.map((s) => ({
      region_id: regionId, id: ++id, name: s.name, street_key: normalizeStreet(s.name), zip_code: s.zip, city: s.city, country: s.country, lat: s.lat, lng: s.lng,
    })));
    id = 0;
    await bulkInsert(q, 'region_localities', LOCALITY_COLUMNS, extracted.localities.map((l) => ({
      region_id: regionId, id: ++id, kind: l.kind, name: l.name, name_key: normalizeStreet(l.name), zip_code: l.zip, city: l.city, country: l.country, lat: l.lat, lng: l.lng,
    })));
    return { addresses: extracted.addresses.length, streets: extracted.streets.length, localities: extracted.localities.length };
  },
  async remove(q: Queryable, regionId: string): Promise<void> {
    for (const table of ['region_addresses', 'region_streets', 'region_localities']) {
      await q.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE region_id = ${regionId}`);
    }
  },
};

export interface ExtractedAddresses {
  addresses: AddressRow[];
  streets: (LatLng & { name: string; zip: string | null; city: string | null; country: string | null })[];
  localities: (LatLng & { kind: 'city' | 'postcode'; name: string; zip: string | null; city: string | null; country: string | null })[];
}

/** Everything the step stores, computed in memory (exported for the tests). */
export function extractAddresses(osm: OsmData): ExtractedAddresses {
  const waysById = new Map<number, readonly number[]>();
  for (const way of osm.ways) waysById.set(way.id, way.refs);
  const { cities, postcodes, countries } = boundaries(osm, waysById);

  const locate = (p: LatLng, tags?: OsmTags): Located => {
    const country = tags?.['addr:country'] ?? smallest(countries, p)?.country ?? null;
    const cityArea = smallest(cities, p) ?? smallest(countries.filter((c) => c.polygon.maxLat - c.polygon.minLat < 0.5), p);
    const zip = tags?.['addr:postcode'] ?? smallest(postcodes, p)?.name ?? cityArea?.zip ?? null;
    return { zip, city: tags?.['addr:city'] ?? cityArea?.name ?? null, country: country ?? cityArea?.country ?? null };
  };

  const addresses: AddressRow[] = [];
  const seen = new Set<string>();
  const add = (street: string, numbers: string, p: LatLng, located: Located, origin: AddressRow['origin']) => {
    for (const number of numbers.split(/[;,]/).map((n) => n.trim()).filter((n) => n !== '')) {
      const key = `${normalizeStreet(street)}|${normalizeNumber(number)}|${located.city ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      addresses.push({ street, number, ...p, ...located, origin });
    }
  };

  for (const node of osm.nodes.values()) {
    const tags = node.tags;
    if (!tags?.['addr:housenumber'] || !tags['addr:street']) continue;
    add(tags['addr:street'], tags['addr:housenumber'], node, locate(node, tags), 'node');
  }
  for (const way of osm.ways) {
    if (!way.tags['addr:housenumber'] || !way.tags['addr:street']) continue;
    const points = wayPoints(osm, way.refs);
    if (points.length === 0) continue;
    const closed = way.refs.length > 3 && way.refs[0] === way.refs[way.refs.length - 1] && points.length === way.refs.length;
    const centre = closed ? ringCentroid(points) : meanPoint(points);
    add(way.tags['addr:street'], way.tags['addr:housenumber'], centre, locate(centre, way.tags), 'building');
  }
  for (const relation of osm.relations) {
    if (!relation.tags['addr:housenumber'] || !relation.tags['addr:street']) continue;
    const outer = relation.members.find((m) => m.type === 'way' && m.role === 'outer');
    const points = outer ? wayPoints(osm, waysById.get(outer.ref) ?? []) : [];
    if (points.length === 0) continue;
    const centre = ringCentroid(points);
    add(relation.tags['addr:street'], relation.tags['addr:housenumber'], centre, locate(centre, relation.tags), 'building');
  }
  for (const way of osm.ways) {
    const scheme = way.tags['addr:interpolation'];
    if (scheme) for (const row of interpolate(osm, way.refs, scheme, way.tags)) add(row.street, row.number, row, locate(row, way.tags), 'interpolation');
  }

  // One street per name and city, at the middle of its longest piece.
  const groups = new Map<string, { name: string; line: LatLng[]; length: number }>();
  for (const way of osm.ways) {
    const name = way.tags.name;
    if (!name || !STREET_HIGHWAYS.has(way.tags.highway ?? '')) continue;
    const line = wayPoints(osm, way.refs);
    if (line.length === 0) continue;
    const middle = pointAlong(line, 0.5);
    const key = `${normalizeStreet(name)}|${locate(middle).city ?? ''}`;
    const group = groups.get(key);
    if (!group || group.length < line.length) groups.set(key, { name, line, length: line.length });
  }
  const streets = [...groups.values()].map(({ name, line }) => {
    const p = pointAlong(line, 0.5);
    return { name, ...p, ...locate(p) };
  });

  const localities: ExtractedAddresses['localities'] = [];
  const cityAreas = [...cities, ...countries.filter((c) => c.polygon.maxLat - c.polygon.minLat < 0.5)];
  for (const area of cityAreas) {
    const centre = ringCentroid(area.polygon.rings.reduce((a, b) => (b.length > a.length ? b : a)));
    localities.push({ kind: 'city', name: area.name, ...centre, zip: area.zip, city: area.name, country: area.country ?? locate(centre).country });
  }
  const zips = new Map<string, { points: LatLng[]; city: string | null; country: string | null }>();
  for (const row of [...addresses, ...streets]) {
    if (!row.zip) continue;
    const entry = zips.get(row.zip) ?? { points: [], city: row.city, country: row.country };
    entry.points.push(row);
    zips.set(row.zip, entry);
  }
  for (const area of cityAreas) {
    if (area.zip && !zips.has(area.zip)) zips.set(area.zip, { points: [ringCentroid(area.polygon.rings[0]!)], city: area.name, country: area.country });
  }
  for (const [zip, entry] of zips) localities.push({ kind: 'postcode', name: zip, ...meanPoint(entry.points), zip, city: entry.city, country: entry.country });
  return { addresses, streets, localities };
}

function boundaries(osm: OsmData, waysById: ReadonlyMap<number, readonly number[]>) {
  const cities: Area[] = [];
  const postcodes: Area[] = [];
  const countries: Area[] = [];
  for (const relation of osm.relations) {
    const { tags } = relation;
    const kind = tags.boundary === 'postal_code' ? 'postcode' : tags.boundary === 'administrative' && tags.admin_level === '8' ? 'city' : tags.boundary === 'administrative' && tags.admin_level === '2' ? 'country' : null;
    if (!kind) continue;
    const name = kind === 'postcode' ? (tags.postal_code ?? tags['addr:postcode'] ?? tags.name) : tags.name;
    if (!name) continue;
    const polygon = relationPolygon(osm, relation, waysById);
    if (!polygon) continue;
    const zip = tags['addr:postcode'] ?? tags.postal_code ?? null;
    const area = { polygon, name, zip, country: tags['ISO3166-1'] ?? tags['ISO3166-1:alpha2'] ?? null };
    (kind === 'postcode' ? postcodes : kind === 'city' ? cities : countries).push(area);
  }
  return { cities, postcodes, countries };
}

/** The smallest area (by its box) that contains the point. */
function smallest(areas: readonly Area[], p: LatLng): Area | null {
  let best: Area | null = null;
  let bestSize = Infinity;
  for (const area of areas) {
    const size = (area.polygon.maxLat - area.polygon.minLat) * (area.polygon.maxLng - area.polygon.minLng);
    if (size < bestSize && contains(area.polygon, p)) {
      best = area;
      bestSize = size;
    }
  }
  return best;
}

/**
 * The numbers between an interpolation line's numbered nodes (OSM's addr:interpolation: odd, even, all, or a step),
 * placed at their share of the line between the two nodes.
 */
export function interpolate(osm: OsmData, refs: readonly number[], scheme: string, wayTags: OsmTags): (LatLng & { street: string; number: string })[] {
  const step = scheme === 'odd' || scheme === 'even' ? 2 : scheme === 'all' ? 1 : Number.parseInt(scheme, 10);
  if (!Number.isInteger(step) || step < 1) return [];
  const out: (LatLng & { street: string; number: string })[] = [];
  let from: { index: number; number: number; street: string | undefined } | null = null;
  for (let i = 0; i < refs.length; i++) {
    const node = osm.nodes.get(refs[i]!);
    const raw = node?.tags?.['addr:housenumber'];
    if (!node || !raw || !/^\d+$/.test(raw)) continue;
    const here = { index: i, number: Number(raw), street: node.tags?.['addr:street'] ?? wayTags['addr:street'] };
    if (from && from.street && from.street === here.street && Math.abs(here.number - from.number) > step && Math.abs(here.number - from.number) <= 2000) {
      const line = refs.slice(from.index, i + 1).map((ref) => osm.nodes.get(ref)).filter((n) => n !== undefined).map((n) => ({ lat: n.lat, lng: n.lng }));
      const direction = here.number > from.number ? 1 : -1;
      const span = Math.abs(here.number - from.number);
      for (let n = from.number + direction * step; direction > 0 ? n < here.number : n > here.number; n += direction * step) {
        out.push({ street: from.street, number: String(n), ...pointAlong(line, Math.abs(n - from.number) / span) });
      }
    }
    from = here;
  }
  return out;
}
