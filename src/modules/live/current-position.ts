// A tour's current driver position, as the tracking row holds it: what the recipient's tracking read shows.
import type { Queryable } from '../../db/client.ts';
import { findTracking } from './repository.ts';

export async function currentPositionOfTour(q: Queryable, tenantId: string, tourId: string): Promise<{ lat: number; lng: number; recordedAt: Date } | null> {
  const row = await findTracking(q, tenantId, tourId);
  if (!row || row.lat === null || row.lng === null || row.recordedAt === null) return null;
  return { lat: row.lat, lng: row.lng, recordedAt: row.recordedAt };
}
