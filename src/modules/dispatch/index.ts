// What other modules may use of dispatch (bookings, stops, packages, tours): named operations, read helpers and a few
// repository reads other modules' hot paths share (each named below), never a table or a write.
// Reading tours (compensation, live tracking, the optimiser): facts and stops in order; a caller's read passes requireTour (below).
export { findTourById, listTourStops, type TourStopView, type TourView } from './tours/tour-reads-for-modules.ts';
export type { BookingStatus, StopStatus, TourStatus } from './tables.ts';

export { automaticGroup } from './stops/grouping.ts';
export { Stop as StopSchema } from './bookings/schemas.ts';
export { stopPayloadDeprecation } from './stops/deprecations.ts';
/** Wire enums shared with the event payloads of the OpenAPI `webhooks` section. */
export { BookingStatus as BookingStatusSchema } from './bookings/schemas.ts';
export { TourStatus as TourStatusSchema } from './tours/schemas.ts';
export { countOpenToursAndBusyDrivers } from './tours/repository.ts';
/** The worker's handler of `tours.expire_claim` (worker/handlers.ts). */
export { expireClaimJob } from './tours/jobs.ts';
export { runPlanJob } from './planning/plan-job.ts';
/** The worker's handler of `bookings.auto_dispatch` (decision 1350). */
export { autoDispatchJob } from './auto-dispatch/jobs.ts';

// Failing a stop (the failures module's failStop): lock, write through these, render.
export {
  appendRecoveryStop,
  failStopOnTour,
  lockStopForFailure,
  renderFailedStop,
  type RecoveryStop,
  type StopFailureRecord,
  type StopFailureScene,
} from './stops/fail-stop-on-tour.ts';

// Live tracking (ETAs, the live stream) reads tours and stops through these.
export * from './tracking-reads.ts';
// The visibility rule over facts (the live stream decides per event in live/access.ts), and the tour's door.
export { canSeeBooking, canSeeTour } from './visibility.ts';
export { requireBooking, requireLoadedTour, requireTour } from './access.ts';
// Live tracking follows the tours a driver holds; the tour machine says which statuses those are.
export { isHeldByDriver } from './tours/tour-machine.ts';
// Whether a stop takes no more steps (decision 0215: the one list of final statuses), for tracking's read.
export { isFinalStop } from './bookings/booking-status.ts';
// Compensation: the tour's door above (404 for a tour the caller does not see), and the facts tip distribution decides on.
export { tourRead, type TourRow } from './tours/repository.ts';
export { bookingIdsOfTours, tipBookingFacts, tipTourFacts, type TipBookingFacts, type TipTourFacts } from './tip-facts.ts';
export { setLegacyEarnings, type EarningsTarget } from './legacy-earnings-field.ts';
export { getBooking } from './bookings/operations.ts';
export { getTour } from './tours/get-tours.ts';
export { BookingEnvelope } from './bookings/schemas.ts';
export { TourEnvelope } from './tours/schemas.ts';
export { earningsDeprecation } from './legacy-earnings-field.ts';
// The recipient's tracking link (the tracking module's public read): the booking a token tracks.
export {
  findTrackedBooking,
  liveTokensRead,
  recordRecipientInstructions,
  recordTrackingFeedback,
  recipientOwnStops,
  tokenHashes,
  trackedBookingRead,
  trackedOrExpired,
  trackingExpired,
  type TrackedBooking,
} from './bookings/tracked-booking.ts';
// The recipient's later day through the link (decision 1788).
export { moveDeliveryDate, trackedDeliveryDate, type DeliveryDate } from './bookings/recipient-reschedule.ts';
// Proof images (decision 1250): the tracking read links and serves a tracked stop's photo; the worker's retention.
export { trackingProofPhotoUrl } from './bookings/tracking-links.ts';
export { deleteExpiredProofFiles, readProofImage, proofImageHeaders, rewrapProofKeys, type ProofImage } from './proof-files/operations.ts';
export { ensureProofRetention, proofRetentionJob } from './proof-files/jobs.ts';
// Recipient notifications (the tracking module): drop-offs at a moment to tell, and the links their e-mails carry.
export { recipientStopsAtAMoment, type RecipientArea, type RecipientStop } from './recipient-stops.ts';
export { trackingLinksOf } from './bookings/tracking-links.ts';
// Recipient-data retention (the tracking module, decision 1773): bookings over since the cutoff, their stops' numbers.
export { bookingsEndedBefore, eraseRecipientStopData } from './recipient-retention.ts';
// Delivery analytics (contract §17): the finished stops it counts, what a tour's plan promised and what happened.
export { finishedStopsSql, tourActuals, tourFactsSql, type FinishedStopsScope, type TourActuals } from './analytics-reads.ts';
export { findTourPlan, tourPlansSql, type TourPlanRow } from './tour-plans.ts';
// Dispatch's texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as applyPlan } from './planning/apply-plan.ts';
import { messages as applyJob } from './planning/apply-job.ts';
import { messages as optimizeTour } from './planning/optimize-tour.ts';
import { messages as packages } from './packages/operations.ts';
import { messages as trackedBooking } from './bookings/tracked-booking.ts';
import { messages as recipientReschedule } from './bookings/recipient-reschedule.ts';
import { messages as driverFlow } from './stops/driver-flow.ts';
import { messages as stopInput } from './stops/stop-input.ts';
import { messages as grouping } from './stops/grouping.ts';
import { messages as tours } from './tours/operations.ts';
import { messages as dispatching } from './tours/merge-and-insert.ts';
import { messages as createBooking } from './bookings/create-booking.ts';
import { messages as locateStops } from './bookings/locate-stops.ts';
import { messages as bookingSplit } from './tours/booking-split.ts';
export const messages: readonly Messages[] = [applyPlan, applyJob, optimizeTour, packages, trackedBooking, recipientReschedule, driverFlow, stopInput, grouping, tours, dispatching, createBooking, locateStops, bookingSplit];
