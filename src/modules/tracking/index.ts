// What the composition root uses of tracking: the public routes of a booking's recipient link (docs/tracking.md).
export { trackingRoutes } from './routes.ts';
/** The server-rendered tracking page reads the same object (src/pages/track-page.ts). */
export { readTracking, readTrackingPage } from './operations.ts';
// The worker's recipient-notification sweep (decision 1104), woken by dispatch's changes (decision 1787).
export { ensureRecipientNotifications, notifyRecipientsJob, wakeRecipientNotifications } from './notify.ts';
// The recipient messages' send job (decision 1761).
export { sendRecipientMessageJob } from './send-message.ts';
// Recipients' numbers and messages erased after RECIPIENT_DATA_RETENTION_DAYS (decision 1773).
export { ensureRecipientRetention, recipientRetentionJob } from './recipient-retention.ts';
// Tracking's texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as tracking } from './operations.ts';
import { messages as rateLimit } from './rate-limit.ts';
export const messages: readonly Messages[] = [tracking, rateLimit];
