// What the rest of Tourbook uses of webhooks: the worker's fan-out and delivery passes.
export { DELIVERY_BATCH, deliverDue, fanOutEvents } from './delivery.ts';
export { resealWebhookSecrets, sealPlainWebhookSecrets } from './reseal.ts';
// Webhooks' texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as webhooks } from './operations.ts';
export const messages: readonly Messages[] = [webhooks];
