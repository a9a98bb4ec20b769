// Plane geometry on OSM coordinates, small enough for a city: rings from boundary relations, point in polygon,
// centroids and a point on a line. Distances in metres on the sphere.
import type { OsmData, OsmRelation } from './osm-data.ts';

export interface LatLng {
  lat: number;
  lng: number;
}

/** A polygon as closed rings (outer and inner alike: even-odd containment treats holes right). */
export interface Polygon {
  rings: LatLng[][];
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

const EARTH_RADIUS_M = 6_371_008.8;

export function distanceM(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The coordinates of a way's nodes that the extract holds (a way cut at the border keeps its inside part). */
export function wayPoints(osm: OsmData, refs: readonly number[]): LatLng[] {
  const points: LatLng[] = [];
  for (const ref of refs) {
    const node = osm.nodes.get(ref);
    if (node) points.push({ lat: node.lat, lng: node.lng });
  }
  return points;
}

/**
 * The relation's outer and inner ways joined end to end into closed rings. Null when a ring cannot be closed (the
 * extract cut the boundary): containment in an open ring means nothing.
 */
export function relationPolygon(osm: OsmData, relation: OsmRelation, waysById: ReadonlyMap<number, readonly number[]>): Polygon | null {
  const pieces: number[][] = [];
  for (const member of relation.members) {
    if (member.type !== 'way' || (member.role !== 'outer' && member.role !== 'inner' && member.role !== '')) continue;
    const refs = waysById.get(member.ref);
    if (!refs || refs.length < 2) return null;
    pieces.push([...refs]);
  }
  const rings: number[][] = [];
  while (pieces.length > 0) {
    let ring = pieces.pop()!;
    while (ring[0] !== ring[ring.length - 1]) {
      const end = ring[ring.length - 1];
      const next = pieces.findIndex((piece) => piece[0] === end || piece[piece.length - 1] === end);
      if (next < 0) return null;
      const piece = pieces.splice(next, 1)[0]!;
      ring = ring.concat(piece[0] === end ? piece.slice(1) : piece.reverse().slice(1));
    }
    rings.push(ring);
  }
  if (rings.length === 0) return null;
  const points = rings.map((ring) => wayPoints(osm, ring));
  if (points.some((ring, i) => ring.length !== rings[i]!.length || ring.length < 4)) return null;
  let minLat = Infinity;
  let minLng = Infinity;
  let maxLat = -Infinity;
  let maxLng = -Infinity;
  for (const ring of points) {
    for (const p of ring) {
      minLat = Math.min(minLat, p.lat);
      maxLat = Math.max(maxLat, p.lat);
      minLng = Math.min(minLng, p.lng);
      maxLng = Math.max(maxLng, p.lng);
    }
  }
  return { rings: points, minLat, minLng, maxLat, maxLng };
}

/** Even-odd ray casting over every ring. */
export function contains(polygon: Polygon, p: LatLng): boolean {
  if (p.lat < polygon.minLat || p.lat > polygon.maxLat || p.lng < polygon.minLng || p.lng > polygon.maxLng) return false;
  let inside = false;
  for (const ring of polygon.rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i]!;
      const b = ring[j]!;
      if (a.lat > p.lat !== b.lat > p.lat && p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng) inside = !inside;
    }
  }
  return inside;
}

/** The area-weighted centroid of a closed ring (its vertices' mean when degenerate). */
export function ringCentroid(ring: readonly LatLng[]): LatLng {
  let area = 0;
  let lat = 0;
  let lng = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    const cross = a.lng * b.lat - b.lng * a.lat;
    area += cross;
    lng += (a.lng + b.lng) * cross;
    lat += (a.lat + b.lat) * cross;
  }
  if (Math.abs(area) < 1e-14) return meanPoint(ring);
  return { lat: lat / (3 * area), lng: lng / (3 * area) };
}

export function meanPoint(points: readonly LatLng[]): LatLng {
  let lat = 0;
  let lng = 0;
  for (const p of points) {
    lat += p.lat;
    lng += p.lng;
  }
  return { lat: lat / points.length, lng: lng / points.length };
}

/** The point at `fraction` (0–1) of a line's length. */
export function pointAlong(line: readonly LatLng[], fraction: number): LatLng {
  if (line.length === 1) return line[0]!;
  const lengths: number[] = [];
  let total = 0;
  for (let i = 1; i < line.length; i++) {
    const d = distanceM(line[i - 1]!, line[i]!);
    lengths.push(d);
    total += d;
  }
  let target = total * Math.min(1, Math.max(0, fraction));
  for (let i = 0; i < lengths.length; i++) {
    const d = lengths[i]!;
    if (target <= d || i === lengths.length - 1) {
      const t = d === 0 ? 0 : Math.min(1, target / d);
      const a = line[i]!;
      const b = line[i + 1]!;
      return { lat: a.lat + (b.lat - a.lat) * t, lng: a.lng + (b.lng - a.lng) * t };
    }
    target -= d;
  }
  return line[line.length - 1]!;
}
