// Rendering stops for a caller: everything a read needs is loaded once (loadStopContext), then mapped (views.ts).
import type { Queryable } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import type { Deps } from '../../../deps.ts';
import type { StopEta } from '../../../seams/index.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import { isFinalStop } from '../bookings/index.ts';
import { findTours, type TourRow } from '../tours/index.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import * as stopsRepo from './repository.ts';
import { isUnderWay, toStopView, type StopContext } from './views.ts';

/** What rendering stops needs of Deps: the clock (sunset dates) and the failures module's rules (failure_options). */
export type RenderDeps = Pick<Deps, 'clock' | 'hooks'>;

/** Rows the caller already holds are passed in `known` and not read again. */
export async function loadStopContext(
  q: Queryable,
  render: RenderDeps,
  tenantId: string,
  stops: stopsRepo.StopRow[],
  known: { tours?: TourRow[]; tourStops?: stopsRepo.StopRow[]; bookingStops?: stopsRepo.StopRow[]; packages?: packagesRepo.PackageRow[] } = {},
): Promise<StopContext> {
  // failure_options render only on tour stops under way: only their tours and services are read.
  const tourIds = [...new Set(stops.filter(isUnderWay).map((s) => s.tourId).filter((id): id is string => id !== null))];
  const bookingIds = [...new Set(stops.filter(isUnderWay).map((s) => s.bookingId).filter((id): id is string => id !== null))];
  // One after the other: inside a transaction `q` is a single connection, which must not run two queries at once.
  const tours = known.tours?.filter((t) => tourIds.includes(t.id)) ?? (await findTours(q, tenantId, tourIds));
  const tourStops = known.tourStops?.filter((s) => s.tourId !== null && tourIds.includes(s.tourId)) ?? (await stopsRepo.findStopsOfTours(q, tenantId, tourIds));
  const bookingStops = known.bookingStops ?? (await stopsRepo.findStopsOfBookings(q, tenantId, bookingIds));
  const packages = known.packages ?? (await packagesRepo.findPackagesOfStops(q, tenantId, stops.map((s) => s.id)));
  const services = new Map<string, ServiceConfig>();
  for (const id of new Set(tours.map((t) => t.serviceId))) {
    const service = await getService(q, tenantId, id);
    if (service) services.set(service.id, service);
  }
  const tourStopCounts = new Map<string, number>();
  for (const s of tourStops) if (s.tourId && s.status !== 'cancelled') tourStopCounts.set(s.tourId, (tourStopCounts.get(s.tourId) ?? 0) + 1);
  const byBooking = new Map<string, stopsRepo.StopRow[]>();
  for (const s of bookingStops) if (s.bookingId) byBooking.set(s.bookingId, [...(byBooking.get(s.bookingId) ?? []), s]);
  const packageIdsByStop = new Map<string, string[]>();
  for (const p of packages) {
    for (const stopId of [p.pickupStopId, p.dropoffStopId]) packageIdsByStop.set(stopId, [...(packageIdsByStop.get(stopId) ?? []), p.id]);
  }
  const etaStopIds = stops.filter((s) => s.tourId !== null && !isFinalStop(s.status)).map((s) => s.id);
  const etas = etaStopIds.length ? await render.hooks.dispatch.stopEtas(q, tenantId, etaStopIds) : new Map<string, StopEta>();
  return {
    etas,
    tours: new Map(tours.map((t) => [t.id, t])),
    tourStopCounts,
    bookingStops: byBooking,
    services,
    packageIdsByStop,
    clock: render.clock,
    failureRules: render.hooks.failureRules,
  };
}

export async function renderStop(q: Queryable, render: RenderDeps, actor: Actor, stop: stopsRepo.StopRow, known: Parameters<typeof loadStopContext>[4] = {}) {
  return toStopView(actor, stop, await loadStopContext(q, render, actor.tenantId, [stop], known));
}
