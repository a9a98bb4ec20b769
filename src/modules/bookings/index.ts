// What other modules may use of bookings: stop and package rows, access checks, rendering, stop building.
export * as bookingsRepository from './repository.ts';
export type { BookingRow, PackageRow, StopRow } from './repository.ts';
export { canSee as canSeeBookingRow, visibleBooking, requireDispatcher } from './access.ts';
export { automaticGroup, groupAfterTypeChange } from './grouping.ts';
export { deriveBookingStatus, isFinalStop } from './booking-status.ts';
export { buildStops, stopLimitReached } from './stop-input.ts';
export { loadStopContext, renderBookings, renderStop, toStopView, tourFacts } from './views.ts';
export { Stop as StopSchema } from './schemas.ts';
