// What a tour's driver's shift says about fitting more stops on the tour: how many packages the vehicle holds and
// when the shift ends (decision 1350). A tour without a driver, or whose driver has no shift covering it, has neither.
import type { Queryable } from '../../../db/client.ts';
import { shiftsOfDrivers } from '../../shifts/index.ts';

export interface ShiftLimits {
  /** Packages the vehicle holds at once; null: not applied. */
  capacity: number | null;
  /** When the shift ends; null: not applied. */
  endsAt: Date | null;
}

/** A tour asking: its driver, and when its open part starts (the shift must cover that moment). */
export interface TourAtTime {
  id: string;
  driverId: string | null;
  startAt: Date;
}

export type ShiftsOfTours = (q: Queryable, tenantId: string, tours: readonly TourAtTime[]) => Promise<Map<string, ShiftLimits>>;

const NONE: ShiftLimits = { capacity: null, endsAt: null };

/** Each tour's limits by the shift of its driver that covers its start: one read for all the tours. */
export const shiftsOfTours: ShiftsOfTours = async (q, tenantId, tours) => {
  const limits = new Map(tours.map((t) => [t.id, NONE]));
  const driven = tours.filter((t): t is TourAtTime & { driverId: string } => t.driverId !== null);
  if (!driven.length) return limits;
  const from = new Date(Math.min(...driven.map((t) => t.startAt.getTime())));
  const to = new Date(Math.max(...driven.map((t) => t.startAt.getTime())) + 1);
  const shifts = await shiftsOfDrivers(q, tenantId, [...new Set(driven.map((t) => t.driverId))], from, to);
  for (const tour of driven) {
    const at = tour.startAt.getTime();
    const shift = shifts.find((s) => s.driver_id === tour.driverId && Date.parse(s.starts_at) <= at && at < Date.parse(s.ends_at));
    if (shift) limits.set(tour.id, { capacity: shift.vehicle?.capacity.packages ?? null, endsAt: new Date(shift.ends_at) });
  }
  return limits;
};
