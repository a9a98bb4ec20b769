// The bookings/ sub-folder's door: what dispatch's other sub-folders and its top-level files use of it (decision
// 0230). A cross-sub-folder import names this file, never one behind it; src/architecture.test.ts holds it.
// The repository is exported whole, as a namespace, so that its callers keep reading `xRepo.find…(…)`.
export { deriveBookingStatus, FINAL_STOP_STATUSES, isFinalStop, isOpenBooking, settledBooking } from './booking-status.ts';
export { serviceOrReject } from './references.ts';
export * as bookingsRepository from './repository.ts';
export { findBookingWithChildren } from './repository.ts';
export type { BookingRow, NewBooking } from './repository.ts';
export { CustomStopBody, DROPOFF_EXAMPLE, PreferredDriversBody, Stop, STOP_EXAMPLE, StopEnvelope, StopPropertiesBody, View, ViewQuery } from './schemas.ts';
export type { CustomStopInput, GroupsInput, StopInputT, StopPropertiesInput } from './schemas.ts';
export { ForceDeliveryBody, LookedUpPackageEnvelope, PackageEnvelope, PackageLookupBody, PackageTransitionBody, PROOF_BODY_LIMIT, StopCompleteBody } from './handover-schemas.ts';
export type { DeliveryProofInput, ForceDeliveryInput } from './handover-schemas.ts';
