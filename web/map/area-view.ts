// Which service area a map opens on (decision 1544): the one its tours and stops are in — the area holding most of
// them — fitted to that area's boundary and its own features, never to every area at once.
import type { Feature } from './layers.ts';
import { boundsOf } from './layers.ts';

export interface AreaView {
  areaId: string | null;
  bounds: [[number, number], [number, number]] | null;
}

type Area = { id: string; boundary?: unknown };

const inside = (point: [number, number], ring: number[][]): boolean => {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > point[1] !== yj! > point[1] && point[0] < ((xj! - xi!) * (point[1] - yi!)) / (yj! - yi!) + xi!) hit = !hit;
  }
  return hit;
};

const pointsOf = (feature: Feature): [number, number][] => {
  const g = feature.geometry;
  if (g.type === 'Point') return [g.coordinates as [number, number]];
  if (g.type === 'LineString') return g.coordinates as [number, number][];
  return [];
};

/** The area to open on (the chosen one, else the one with most of the points) and the view that shows it. */
export function areaView(areas: readonly Area[], features: readonly Feature[], chosen: string | null = null): AreaView {
  const withBoundary = areas.filter((area) => (area.boundary as { type?: string } | undefined)?.type === 'Polygon');
  const ringOf = (area: Area) => ((area.boundary as { coordinates: number[][][] }).coordinates[0] ?? []) as number[][];
  const points = features.flatMap(pointsOf);
  let areaId = chosen;
  if (!areaId) {
    let best = -1;
    for (const area of withBoundary) {
      const count = points.filter((p) => inside(p, ringOf(area))).length;
      if (count > best) [best, areaId] = [count, area.id];
    }
  }
  const area = withBoundary.find((a) => a.id === areaId);
  if (!area) return { areaId: null, bounds: boundsOf([...features]) };
  const ring = ringOf(area);
  const own = features.filter((f) => pointsOf(f).some((p) => inside(p, ring)));
  const boundary: Feature = { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} };
  return { areaId: area.id, bounds: boundsOf([boundary, ...own]) };
}
