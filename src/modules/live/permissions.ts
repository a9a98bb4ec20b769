// The live-tracking permission matrix (docs/api-guide.md "Live tracking"): role × action, checked at the top of every operation.
import type { Actor, UserRole } from '../../http/actor.ts';

export const LIVE_ACTIONS = ['record_location', 'list_positions', 'open_stream', 'create_ticket'] as const;
export type LiveAction = (typeof LIVE_ACTIONS)[number];

const all = (allowed: readonly LiveAction[]): Record<LiveAction, boolean> =>
  Object.fromEntries(LIVE_ACTIONS.map((action) => [action, allowed.includes(action)])) as Record<LiveAction, boolean>;

const MATRIX: Record<UserRole, Record<LiveAction, boolean>> = {
  // Only the tour's own driver reports its position; which positions a manager reads is narrowed per tour.
  admin: all(['list_positions', 'open_stream', 'create_ticket']),
  manager: all(['list_positions', 'open_stream', 'create_ticket']),
  driver: all(['record_location', 'open_stream', 'create_ticket']),
  // Customers follow their own bookings' ETA changes on the stream.
  customer: all(['open_stream', 'create_ticket']),
};

export const mayOnLive = (actor: Pick<Actor, 'role'>, action: LiveAction): boolean => MATRIX[actor.role][action];
