// Ingestion filters for driver positions (issue 15): which positions are noise, and which one becomes current.
import { haversineMeters, type LatLng } from './geo.ts';

export type PositionFilter = 'zero' | 'duplicate' | 'jump';

export interface Fix extends LatLng {
  recordedAt: Date;
}

export interface Classification {
  /** Why the position is noise (stored for the record, moves nothing), or null. */
  filtered: PositionFilter | null;
  /** Whether it becomes the tour's current position (and so moves the ETAs). */
  becomesCurrent: boolean;
}

export interface IngestionRules {
  /** Above this implied speed from the current position a fix is a GPS jump (default 200 km/h). */
  maxSpeedKmh: number;
}

/** Speed implied by travelling from `from` to `to`, in km/h; infinite for a move in no time. */
export function impliedSpeedKmh(from: Fix, to: Fix): number {
  const meters = haversineMeters(from, to);
  const seconds = (to.recordedAt.getTime() - from.recordedAt.getTime()) / 1000;
  if (meters === 0) return 0;
  if (seconds <= 0) return Infinity;
  return (meters / seconds) * 3.6;
}

/**
 * Classifies one uploaded fix against the tour's current position. Phones that were offline upload old fixes
 * late: those are history, never current. (0, 0) is what broken GPS chips report; a repeated upload is a retry.
 */
export function classifyPosition(fix: Fix, current: Fix | null, duplicate: boolean, rules: IngestionRules): Classification {
  if (fix.lat === 0 && fix.lng === 0) return { filtered: 'zero', becomesCurrent: false };
  if (duplicate) return { filtered: 'duplicate', becomesCurrent: false };
  if (!current) return { filtered: null, becomesCurrent: true };
  if (fix.recordedAt.getTime() < current.recordedAt.getTime()) return { filtered: null, becomesCurrent: false };
  if (impliedSpeedKmh(current, fix) > rules.maxSpeedKmh) return { filtered: 'jump', becomesCurrent: false };
  return { filtered: null, becomesCurrent: true };
}
