// The webhooks permission matrix: subscriptions, deliveries, redelivery and test events are the tenant admin's.
import type { Actor, UserRole } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';

export const WEBHOOK_ACTIONS = ['manage'] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];
export type WebhookPermissions = Record<WebhookAction, boolean>;

const all = (allowed: readonly WebhookAction[]): WebhookPermissions =>
  Object.fromEntries(WEBHOOK_ACTIONS.map((action) => [action, allowed.includes(action)])) as WebhookPermissions;

const MATRIX: Record<UserRole, WebhookPermissions> = {
  admin: all(WEBHOOK_ACTIONS),
  manager: all([]),
  driver: all([]),
  customer: all([]),
};

export const mayOnWebhooks = (actor: Pick<Actor, 'role'>, action: WebhookAction): boolean => MATRIX[actor.role][action];

export function requireOnWebhooks(actor: Pick<Actor, 'role'>, action: WebhookAction): void {
  if (!mayOnWebhooks(actor, action)) throw forbidden();
}
