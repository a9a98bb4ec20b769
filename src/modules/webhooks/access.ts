// The webhook subscription's door (decision 0219): subscriptions are the tenant admin's alone (permissions.ts, 403),
// and one of another tenant, or none, is 404.
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import * as repo from './repository.ts';

/** The subscription (404 otherwise), after the operation's role check (`webhookPermissions`, 403), which comes before the body is validated. */
export async function requireWebhookEndpoint(q: Queryable, actor: Actor, id: string, options: { forUpdate?: boolean } = {}): Promise<repo.SubscriptionRow> {
  const row = await repo.findSubscription(q, actor.tenantId, id, { forUpdate: options.forUpdate === true });
  if (!row) throw notFound('webhook');
  return row;
}
