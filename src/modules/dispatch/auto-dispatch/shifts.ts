// What a tour's driver's shift says about fitting more stops on the tour: how many packages the vehicle holds and
// when the shift ends (decision 1350). A tour without a driver, or whose driver has no shift covering it, has neither.
import type { Queryable } from '../../../db/client.ts';
import type { TourRow } from '../tours/repository.ts';

export interface ShiftLimits {
  /** Packages the vehicle holds at once; null: not applied. */
  capacity: number | null;
  /** When the shift ends; null: not applied. */
  endsAt: Date | null;
}

export type ShiftOfTour = (q: Queryable, tenantId: string, tour: Pick<TourRow, 'id' | 'driverId'>, at: Date) => Promise<ShiftLimits>;

export const NO_SHIFTS: ShiftOfTour = async () => ({ capacity: null, endsAt: null });
