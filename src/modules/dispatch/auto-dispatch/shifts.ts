// What a tour's driver's shift says about fitting more stops on the tour: how many packages the vehicle holds and
// when the shift ends (decision 1350). A tour without a driver, or whose driver has no shift covering it, has neither.
import type { Queryable } from '../../../db/client.ts';
import { shiftsOfDrivers } from '../../shifts/index.ts';
import type { TourRow } from '../tours/repository.ts';

export interface ShiftLimits {
  /** Packages the vehicle holds at once; null: not applied. */
  capacity: number | null;
  /** When the shift ends; null: not applied. */
  endsAt: Date | null;
}

export type ShiftOfTour = (q: Queryable, tenantId: string, tour: Pick<TourRow, 'id' | 'driverId'>, at: Date) => Promise<ShiftLimits>;

const NONE: ShiftLimits = { capacity: null, endsAt: null };

/** The shift of the tour's driver that covers `at` (when the tour's open part starts): its vehicle's capacity and end. */
export const shiftOfTour: ShiftOfTour = async (q, tenantId, tour, at) => {
  if (!tour.driverId) return NONE;
  const [shift] = await shiftsOfDrivers(q, tenantId, [tour.driverId], at, new Date(at.getTime() + 1));
  if (!shift) return NONE;
  return { capacity: shift.vehicle?.capacity.packages ?? null, endsAt: new Date(shift.ends_at) };
};
