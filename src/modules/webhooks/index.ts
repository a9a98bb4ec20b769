// What the rest of Tourbook uses of webhooks: the worker's fan-out and delivery passes.
export { DELIVERY_BATCH, deliverDue, fanOutEvents } from './delivery.ts';
export { resealWebhookSecrets, sealPlainWebhookSecrets } from './reseal.ts';
