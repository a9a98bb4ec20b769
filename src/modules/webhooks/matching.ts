// Which subscriptions receive an event: type or "*", filters on data, paid extensions, test pings.
import { EXTENSION_EVENTS, type EventType } from '../../events/catalog.ts';
import type { SubscriptionFilters } from './tables.ts';

export interface MatchableSubscription {
  id: string;
  active: boolean;
  events: string[];
  filters: SubscriptionFilters;
}

export interface MatchableEvent {
  type: string;
  data: Record<string, unknown>;
}

export function subscriptionMatches(subscription: MatchableSubscription, event: MatchableEvent, tenantExtensions: string[]): boolean {
  if (!subscription.active) return false;
  // A test ping goes to the one subscription it was sent for, whatever that subscription listens to.
  if (event.type === 'webhook.test') return event.data.subscription_id === subscription.id;
  const extension = EXTENSION_EVENTS[event.type as EventType];
  if (extension && !tenantExtensions.includes(extension)) return false;
  if (!subscription.events.includes('*') && !subscription.events.includes(event.type)) return false;
  const { service_area_id: serviceAreaId, customer_id: customerId } = subscription.filters;
  if (serviceAreaId && event.data.service_area_id !== serviceAreaId) return false;
  if (customerId && event.data.customer_id !== customerId) return false;
  return true;
}
