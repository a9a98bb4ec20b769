// The recipient's later day through the tracking link (docs/tracking.md "A later day", decision 1788): the wire of
// dispatch's rule and write.
import type { Deps } from '../../deps.ts';
import { moveDeliveryDate, trackedDeliveryDate, type DeliveryDate } from '../dispatch/index.ts';

const view = (d: DeliveryDate) => ({ date: d.date, options: d.options, changeable: d.closed === null, closed_reason: d.closed, moved_from: d.movedFrom });

/** GET /api/tracking/{token}/delivery_date. */
export async function readDeliveryDate(deps: Deps, token: string) {
  return view(await trackedDeliveryDate(deps, token));
}

/** PUT /api/tracking/{token}/delivery_date: one of the days offered (422 otherwise; 409 once it may not move). */
export async function changeDeliveryDate(deps: Deps, token: string, date: string) {
  await moveDeliveryDate(deps, token, date);
  return readDeliveryDate(deps, token);
}
