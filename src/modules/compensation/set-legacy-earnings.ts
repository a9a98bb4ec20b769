// Legacy earnings (deprecated, docs/api-guide.md "Deprecations and removals"): PUT /api/hailing/bookings/{id}/earnings sets the `earnings` field
// of a booking or a tour and, for a tour, emits tour.earnings_updated. It never touches the compensation, and the
// compensation never touches `earnings` (docs/api-guide.md "Tour compensation, tips and legacy earnings": no migration, no mirroring).
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';
import { getBooking, getTour, setLegacyEarnings } from '../dispatch/index.ts';
import { mayOnCompensation } from './permissions.ts';
import type { EarningsInput } from './schemas.ts';

export async function setEarnings(deps: Deps, actor: Actor, id: string, earnings: EarningsInput) {
  const at = deps.clock.now();
  const target = await deps.db.transaction(async (tx) => {
    // Visibility first (404 for what the caller cannot see), then the role (403).
    const written = await setLegacyEarnings(tx, actor, id, { amount: earnings.amount, currency: earnings.currency }, at);
    if (!mayOnCompensation(actor, 'legacy_earnings')) throw forbidden();
    if (written.kind === 'tour') {
      // The route is removed once the sunset is enforced, so the event goes out exactly while the surface is served.
      await recordEvent(tx, {
        tenantId: actor.tenantId,
        actor,
        type: 'tour.earnings_updated',
        resourceId: written.id,
        at,
        data: { tour_id: written.id, service_area_id: written.serviceAreaId, amount: earnings.amount, currency: earnings.currency },
      });
    }
    return written;
  });
  return target.kind === 'booking' ? { booking: await getBooking(deps, actor, id) } : { tour: await getTour(deps, actor, id) };
}
