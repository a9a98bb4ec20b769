// What the composition root uses of tracking: the public routes of a booking's recipient link (docs/tracking.md).
export { trackingRoutes } from './routes.ts';
/** The server-rendered tracking page reads the same object (src/pages/track-page.ts). */
export { readTracking, readTrackingPage } from './operations.ts';
// The worker's recipient-notification sweep (decision 1104).
export { ensureRecipientNotifications, notifyRecipientsJob } from './notify.ts';
