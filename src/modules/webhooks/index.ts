// What the rest of Tourbook uses of webhooks: the worker's fan-out and delivery passes.
export { deliverDue, fanOutEvents } from './delivery.ts';
