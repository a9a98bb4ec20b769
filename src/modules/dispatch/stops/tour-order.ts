// Stop order on a tour: a booking's pickups come before its drop-offs (docs/api-guide.md "Dispatch").
export interface OrderedStop {
  id: string;
  bookingId: string | null;
  type: string;
}

export interface PackageLink {
  pickupStopId: string;
  dropoffStopId: string;
}

/**
 * The ids of drop-offs that come before a pickup they depend on: a package's drop-off before its pickup, or a
 * booking's drop-off before one of that booking's pickups. Empty when the order is valid.
 */
export function dropoffsBeforePickups(tourStops: readonly OrderedStop[], links: readonly PackageLink[]): string[] {
  const index = new Map(tourStops.map((s, i) => [s.id, i]));
  const bad = new Set<string>();
  for (const link of links) {
    const p = index.get(link.pickupStopId);
    const d = index.get(link.dropoffStopId);
    if (p !== undefined && d !== undefined && d < p) bad.add(link.dropoffStopId);
  }
  tourStops.forEach((stop, i) => {
    if (stop.type !== 'dropoff' || !stop.bookingId) return;
    const laterPickup = tourStops.slice(i + 1).some((other) => other.type === 'pickup' && other.bookingId === stop.bookingId);
    if (laterPickup) bad.add(stop.id);
  });
  return [...bad];
}
