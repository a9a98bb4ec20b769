// Creating bookings in bulk (the console's CSV import): each item is createBooking with its own Idempotency-Key.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { AppError, toProblem, type Problem } from '../../../http/errors.ts';
import type { SubRequests, SubResponse } from '../../../http/sub-requests.ts';
import { checkBody } from '../../../http/validation.ts';
import { dispatchPermissions } from '../permissions.ts';
import { checkNewBooking } from './create-booking.ts';
import type { BulkBookingCreateInput, BulkBookingResultOutput } from './bulk-schemas.ts';
import { BookingCreateBody, type BookingCreateInput } from './schemas.ts';

/** The single route every item goes through. */
const CREATE_BOOKING = { method: 'POST', url: '/api/hailing/bookings' } as const;


/**
 * A dry run's answer for one item: what the key already holds when it holds something (the create would answer
 * that), else the create's own checks — the route's schema, then everything createBooking reads before it writes.
 */
async function checkItem(deps: Deps, actor: Actor, single: SubRequests, key: string, body: { booking: BookingCreateInput }): Promise<SubResponse> {
  const stored = await single.peek(CREATE_BOOKING.method, CREATE_BOOKING.url, key, body);
  if (stored.kind === 'replay') return { status: stored.status, body: JSON.parse(stored.body) as unknown, replayed: true };
  try {
    if (stored.kind === 'error') throw stored.error;
    // The schema fills defaults in place, as the route's validation does: on a copy, the caller's body stays as sent.
    const copy = structuredClone(body);
    const invalid = checkBody(BookingCreateBody, copy);
    if (invalid) throw invalid;
    await checkNewBooking(deps, actor, copy.booking);
    return { status: 201, body: null, replayed: false };
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, body: toProblem(err, actor.lang), replayed: false };
    throw err;
  }
}

/** An item's answer on the bulk wire: the booking, or the problem with each pointer also given into the bulk body. */
function resultOf(index: number, answer: SubResponse): BulkBookingResultOutput {
  const base = { index, status: answer.status, replayed: answer.replayed };
  if (answer.status < 400) return { ...base, booking: (answer.body as { booking?: BulkBookingResultOutput['booking'] } | null)?.booking ?? null, error: null };
  const { errors, ...problem } = answer.body as Problem;
  const located = errors?.map((e) => ({ ...e, full_pointer: e.pointer.startsWith('/') ? `/bookings/${index}${e.pointer}` : e.pointer }));
  return { ...base, booking: null, error: { ...problem, ...(located ? { errors: located } : {}) } };
}

/**
 * POST /api/hailing/bookings/bulk: the items one after the other, each exactly as POST /api/hailing/bookings with its
 * Idempotency-Key — its own write, events and stored outcome — so one item's failure leaves the others alone and a
 * retried import replays instead of creating again (api-guide "Creating bookings in bulk", decision 0320).
 */
export async function createBookingsInBulk(deps: Deps, actor: Actor, input: BulkBookingCreateInput, single: SubRequests): Promise<BulkBookingResultOutput[]> {
  // The whole call is refused to a role that may create none, rather than once per item.
  dispatchPermissions.require(actor, 'create_booking');
  const results: BulkBookingResultOutput[] = [];
  for (const [index, item] of input.bookings.entries()) {
    const body = { booking: item.booking };
    const answer = input.dry_run
      ? await checkItem(deps, actor, single, item.idempotency_key, body)
      : await single.send(CREATE_BOOKING.method, CREATE_BOOKING.url, item.idempotency_key, body);
    results.push(resultOf(index, answer));
  }
  return results;
}
