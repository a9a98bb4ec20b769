// The last source of travel times (contract §10): the crow-flies distance × 1.3 at the service area's average speed.
export interface Point {
  lat: number;
  lng: number;
}

/** Roads are not straight: 1.3 is the usual detour factor of urban road networks over the crow-flies distance. */
export const DETOUR_FACTOR = 1.3;

export function haversineMeters(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function straightLineMatrix(points: readonly Point[], speedKmh: number): { seconds: Float64Array; meters: Float64Array } {
  const n = points.length;
  const metersPerSecond = Math.max(1, speedKmh) / 3.6;
  const seconds = new Float64Array(n * n);
  const meters = new Float64Array(n * n);
  // The great circle is the same both ways: each pair once (a re-plan of a day has 2,000 stops: bench/replan.ts).
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const m = haversineMeters(points[i]!, points[j]!) * DETOUR_FACTOR;
      meters[i * n + j] = m;
      meters[j * n + i] = m;
      seconds[i * n + j] = m / metersPerSecond;
      seconds[j * n + i] = m / metersPerSecond;
    }
  }
  return { seconds, meters };
}
