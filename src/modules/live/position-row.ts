// The stored row of one uploaded position, the same on the fast path and in the locked transaction.
import type { Actor } from '../../http/actor.ts';
import { newId } from '../../shared/ids.ts';
import { classifyPosition, type Fix } from './ingestion.ts';
import type { PositionRow, TrackingRow } from './repository.ts';
import type { DriverLocationBodyT } from './schemas.ts';

/** The tour's current position as the ingestion rules see it, or null before its first one. */
export const currentFix = (tracking: TrackingRow): Fix | null =>
  tracking.lat !== null && tracking.lng !== null && tracking.recordedAt !== null ? { lat: tracking.lat, lng: tracking.lng, recordedAt: tracking.recordedAt } : null;

/** Classifies `fix` against the tour's current position and builds the row to store. */
export function positionRow(
  at: { tenantId: string; tourId: string; driverId: string; now: Date },
  input: DriverLocationBodyT['location'],
  fix: Fix,
  tracking: TrackingRow,
  duplicate: boolean,
  maxSpeedKmh: number,
): PositionRow {
  const verdict = classifyPosition(fix, currentFix(tracking), duplicate, { maxSpeedKmh });
  return {
    tenantId: at.tenantId,
    id: newId(),
    tourId: at.tourId,
    driverId: at.driverId,
    lat: fix.lat,
    lng: fix.lng,
    heading: input.heading ?? null,
    speed: input.speed ?? null,
    accuracy: input.accuracy ?? null,
    recordedAt: fix.recordedAt,
    receivedAt: at.now,
    filtered: verdict.filtered,
    becameCurrent: verdict.becomesCurrent,
  };
}

/** What a new current position sets on the tour's tracking row. */
export const currentPositionFields = (actor: Actor, row: PositionRow) => ({
  driverId: actor.userId,
  // A driver belongs to exactly one organization (identity rule); its managers alone follow the positions.
  driverOrganizationId: actor.organizationIds[0] ?? null,
  positionId: row.id,
  lat: row.lat,
  lng: row.lng,
  heading: row.heading,
  speed: row.speed,
  accuracy: row.accuracy,
  recordedAt: row.recordedAt,
  updatedAt: row.receivedAt,
});
