// Busyness (docs/api-guide.md "Events and webhooks"): the 0–100 value of a service area in steps of 10, and which areas moved to a new step.

export interface AreaLoad {
  serviceAreaId: string;
  openTours: number;
  busyDrivers: number;
}

/** min(100, floor(10 × open_tours / max(1, busy_drivers)) × 10), exactly as docs/api-guide.md "Events and webhooks" states it. */
export function busynessOf(openTours: number, busyDrivers: number): number {
  return Math.min(100, Math.floor((10 * openTours) / Math.max(1, busyDrivers)) * 10);
}

export interface AreaChange {
  serviceAreaId: string;
  busyness: number;
  previousBusyness: number;
}

/**
 * Areas whose step differs from the last stored one. An area never computed before counts as 0 (idle), and an area
 * that has no open tour any more is computed as 0, so every area with a stored value is looked at again.
 */
export function changedAreas(loads: AreaLoad[], previous: Map<string, number>): AreaChange[] {
  const current = new Map<string, number>();
  for (const areaId of previous.keys()) current.set(areaId, 0);
  for (const load of loads) current.set(load.serviceAreaId, busynessOf(load.openTours, load.busyDrivers));
  const changes: AreaChange[] = [];
  for (const [serviceAreaId, busyness] of current) {
    const previousBusyness = previous.get(serviceAreaId) ?? 0;
    if (busyness !== previousBusyness) changes.push({ serviceAreaId, busyness, previousBusyness });
  }
  return changes.sort((a, b) => a.serviceAreaId.localeCompare(b.serviceAreaId));
}
