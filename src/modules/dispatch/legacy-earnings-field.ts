// The deprecated legacy `earnings` field of bookings and tours (docs/api-guide.md "Deprecations and removals"): its headers, whether it is still
// rendered, and the one write the compensation module's legacy endpoint makes through dispatch's index.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { markDeprecated, stillServed } from '../../compat/http.ts';
import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import type { Clock } from '../../shared/clock.ts';
import { requireBooking, requireTour } from './access.ts';
import { bookingsRepository as bookingsRepo } from './bookings/index.ts';
import type { Money } from './tables.ts';
import { toursRepository as toursRepo } from './tours/index.ts';

/** preHandler for routes that render bookings or tours: the field's deprecation headers while it is rendered. */
export const earningsDeprecation =
  (deps: Pick<Deps, 'clock'>) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.actor && stillServed(deps, request.actor, 'legacy_earnings')) markDeprecated(reply, 'legacy_earnings');
  };

/** `earnings` as rendered: the stored value while served; omitted once the tenant enforces its sunset. */
export const earningsField = (clock: Clock, actor: Actor, earnings: Money | null): { earnings?: Money | null } =>
  stillServed({ clock }, actor, 'legacy_earnings') ? { earnings } : {};

export type EarningsTarget = { kind: 'booking'; id: string } | { kind: 'tour'; id: string; serviceAreaId: string };

/**
 * Sets the `earnings` of the booking, or else the tour, with this id (the old namespace covered both), if the caller
 * sees it; 404 otherwise. A blind write of one field: nothing is read back to decide it.
 */
export async function setLegacyEarnings(tx: Tx, actor: Actor, id: string, earnings: Money, at: Date): Promise<EarningsTarget> {
  const booking = await bookingsRepo.findBooking(tx, actor.tenantId, id);
  if (booking) {
    await requireBooking(tx, actor, { loaded: booking });
    await bookingsRepo.updateBooking(tx, actor.tenantId, id, { earnings, updatedAt: at });
    return { kind: 'booking', id };
  }
  const tour = await requireTour(tx, actor, id, { otherwise: () => notFound('booking') });
  await toursRepo.updateTour(tx, actor.tenantId, id, { earnings, updatedAt: at });
  return { kind: 'tour', id, serviceAreaId: tour.serviceAreaId };
}
