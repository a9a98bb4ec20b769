// Tour operations: the state machine's actions, preferred drivers, custom tour stops, visibility explained.
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, forbidden, invalidFields, invalidTransition, unknownReference } from '../../../http/errors.ts';
import { dispatchPermissions } from '../permissions.ts';
import type { Messages } from '../../../http/i18n.ts';
import { recordEvent, type EventActor } from '../../../events/outbox.ts';
import { findUser, membershipsOf, setActiveTour } from '../../identity/index.ts';
import { getSchedulingConfig, getService, SCHEDULING_CONFIG_DEFAULTS } from '../../services/index.ts';
import type { JobKind } from '../../../worker/job-kinds.ts';
import { scheduleJob } from '../../../worker/jobs.ts';
import { checkPreferredDrivers } from '../bookings/operations.ts';
import { isFinalStop } from '../bookings/index.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { buildStops, stopLimitReached } from '../stops/index.ts';
import type { CustomStopInput } from '../bookings/index.ts';
import { openTourForUpdate } from './merge-and-insert.ts';
import { requireTour, seesTour } from '../access.ts';
import { getStop } from '../stops/index.ts';
import { renderTour } from './get-tours.ts';
import * as repo from './repository.ts';
import { bookingEventData, recordActiveStatusChange, settle, tourEventData, tourFacts } from '../settle.ts';
import { TOUR_TRANSITIONS, tourTransition, type TourAction, type TourActor } from './tour-machine.ts';
import { tourOrganizations } from '../visibility.ts';
import type { TourPatchInput } from './schemas.ts';

export const CLAIM_EXPIRY_JOB: JobKind = 'tours.expire_claim';

export const messages: Messages = {
  'tour.driver_busy': { en: 'The driver already has a tour under way.', de: 'Der Fahrer hat bereits eine laufende Tour.' },
};

async function claimWindowSeconds(tx: Tx, tenantId: string, serviceId: string): Promise<number> {
  const service = await getService(tx, tenantId, serviceId);
  const config = service?.schedulingConfigId ? await getSchedulingConfig(tx, tenantId, service.schedulingConfigId) : null;
  // A tour without a scheduling config claims for as long as a config created without a window would.
  return config?.claimWindowSeconds ?? SCHEDULING_CONFIG_DEFAULTS.claimWindowSeconds;
}

/** How the caller takes part in an action on this tour, or the error that refuses it. */
function actorKind(actor: Actor, tour: repo.TourRow, action: TourAction): TourActor {
  const by = TOUR_TRANSITIONS[action].by;
  if (dispatchPermissions.may(actor, 'dispatch')) {
    if (by !== 'dispatcher') throw forbidden();
    return 'dispatcher';
  }
  if (!dispatchPermissions.may(actor, 'drive') || by === 'dispatcher' || by === 'system') throw forbidden();
  return tour.driverId === actor.userId ? 'own_driver' : 'eligible_driver';
}

export interface TransitionOptions {
  driverId?: string;
  start?: boolean;
}

/** Applies one action of the tour machine as `by`, with all its effects; used by routes and by the worker. */
async function applyTransition(
  tx: Tx,
  tenantId: string,
  at: Date,
  tour: repo.TourRow,
  action: TourAction,
  by: TourActor,
  assignee: { driverId: string; organizationId: string | null } | null,
  actor: EventActor,
): Promise<void> {
  const actorId = actor === 'system' ? null : actor.userId;
  const step = tourTransition(tour.status, action, by);
  // A role that may never do this is 403; a driver's action that does not fit the tour's state is 409 (decision 0154).
  if (!step.ok) throw step.reason === 'not_allowed' ? forbidden() : invalidTransition('tour', tour.status, TOUR_TRANSITIONS[action].to);
  const previousDriver = tour.driverId;
  const patch: Partial<repo.TourRow> = { status: step.to, updatedAt: at };
  if (step.driver === 'assign' && assignee) {
    Object.assign(patch, { driverId: assignee.driverId, executingOrganizationId: assignee.organizationId });
  }
  if (step.driver === 'release') Object.assign(patch, { driverId: null, executingOrganizationId: null, claimExpiresAt: null });
  const driverId = patch.driverId !== undefined ? patch.driverId : tour.driverId;
  if (action === 'claim') {
    const base = tour.scheduledAt && tour.scheduledAt > at ? tour.scheduledAt : at;
    patch.claimExpiresAt = new Date(base.getTime() + (await claimWindowSeconds(tx, tenantId, tour.serviceId)) * 1000);
    await scheduleJob(tx, { tenantId, kind: CLAIM_EXPIRY_JOB, payload: { tour_id: tour.id }, dueAt: patch.claimExpiresAt, now: at, dedupeKey: tour.id });
  }
  if (step.to === 'en_route') {
    patch.claimExpiresAt = null;
    patch.startedAt = tour.startedAt ?? at;
    if (!driverId || !(await setActiveTour(tx, tenantId, driverId, tour.id))) throw conflict('driver_busy', { key: 'tour.driver_busy' });
  }
  if (tour.status === 'en_route' && previousDriver) await setActiveTour(tx, tenantId, previousDriver, null);
  if (step.to === 'completed') patch.completedAt = at;
  await repo.updateTour(tx, tenantId, tour.id, patch);

  // Stops follow the tour: a driver leaving puts stops under way back to scheduled; a cancelled tour hands its
  // open booking stops back to their bookings and cancels its tour-only stops.
  const stops = await stopsRepo.findStopsOfTours(tx, tenantId, [tour.id]);
  if (step.driver === 'release') {
    for (const s of stops.filter((s) => s.status === 'approaching' || s.status === 'arrived')) {
      await stopsRepo.updateStop(tx, tenantId, s.id, { status: 'scheduled', updatedAt: at });
    }
  }
  if (action === 'cancel') {
    const open = stops.filter((s) => !isFinalStop(s.status));
    // Stops leaving the tour change the route of the bookings that get them back (as removal from a tour does).
    const handedBack = await bookingsRepo.findBookingsForUpdate(tx, tenantId, [...new Set(open.map((s) => s.bookingId).filter((id): id is string => !!id))]);
    for (const s of open) {
      await stopsRepo.updateStop(
        tx,
        tenantId,
        s.id,
        s.bookingId
          ? { status: 'to_be_dispatched', tourId: null, tourPosition: null, updatedAt: at }
          : { status: 'cancelled', cancelledAt: at, updatedAt: at },
      );
    }
    for (const booking of handedBack) {
      await recordEvent(tx, { tenantId, actor, type: 'booking.route_changed', resourceId: booking.id, at, data: bookingEventData(booking) });
    }
    if (open.length) await recordEvent(tx, { tenantId, actor, type: 'tour.modified', resourceId: tour.id, at, data: tourEventData(tour) });
  }
  await recordActiveStatusChange(tx, tenantId, actor, at, tour, {
    from: tour.status,
    to: step.to,
    event: action,
    driverId: driverId ?? previousDriver,
    affectedUserIds: [previousDriver, driverId ?? null, actorId].filter((id): id is string => !!id),
  });
  if (action === 'force_assign') {
    await recordEvent(tx, { tenantId, actor, type: 'tour.force_assigned', resourceId: tour.id, at, data: { ...tourEventData(tour), driver_id: driverId } });
  }
  if (action === 'force_unassign') {
    await recordEvent(tx, { tenantId, actor, type: 'tour.force_unassigned', resourceId: tour.id, at, data: { ...tourEventData(tour), driver_id: previousDriver } });
  }
  Object.assign(tour, patch);
}

async function driverOrganization(tx: Tx, tenantId: string, driverId: string): Promise<string | null> {
  return (await membershipsOf(tx, tenantId, [driverId])).get(driverId)?.[0] ?? null;
}

/** POST /api/hailing/tours/{id}/<action>. */
export async function transitionTour(deps: Deps, actor: Actor, tourId: string, action: TourAction, options: TransitionOptions = {}) {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    // Visibility before role and state, for every caller (decision 0206): a tour another driver took is 404 to the
    // driver who lost the race too, or its 409 would tell drivers of other organizations what they may not see.
    const tour = await requireTour(tx, actor, tourId, { forUpdate: true });
    const by = actorKind(actor, tour, action);
    let assignee: { driverId: string; organizationId: string | null } | null = null;
    if (action === 'claim' || action === 'pick') assignee = { driverId: actor.userId, organizationId: actor.organizationIds[0] ?? null };
    if (action === 'force_assign') {
      const driverId = options.driverId ?? '';
      const driver = await findUser(tx, tenantId, driverId);
      if (!driver || driver.role !== 'driver' || driver.deactivatedAt) throw unknownReference('/driver_id', 'driver');
      const organizationId = await driverOrganization(tx, tenantId, driverId);
      if (tour.managingOrganizationIds.length && !(organizationId && tour.managingOrganizationIds.includes(organizationId))) {
        throw invalidFields([{ pointer: '/driver_id', code: 'driver_not_eligible', detail: 'is not a driver of a managing organization' }]);
      }
      assignee = { driverId, organizationId };
    }
    // Taken before the change: a cancelled tour hands its stops back, and their bookings must still be settled.
    const bookingIds = await stopsRepo.bookingIdsOfTours(tx, tenantId, [tourId]);
    await applyTransition(tx, tenantId, at, tour, action, by, assignee, actor);
    if (action === 'force_assign' && options.start) await applyTransition(tx, tenantId, at, tour, 'start', 'own_driver', null, actor);
    await settle(tx, deps.hooks.dispatch, { tenantId, actor, at, bookingIds, tourIds: [tourId], event: action });
    const fresh = (await repo.findTour(tx, tenantId, tourId))!;
    // The caller may no longer see the tour (a manager force-assigning to another organization's driver).
    return seesTour(actor, fresh) ? renderTour(tx, deps, actor, fresh) : renderTour(tx, deps, actor, fresh, 'compact');
  });
}

/**
 * Gives a tour a plan just created to its driver (force_assign inside the plan's transaction): the plan checked the
 * driver's organization against the bookings' managing organizations already (decision 1301).
 */
export async function forceAssignPlannedTour(tx: Tx, tenantId: string, at: Date, tourId: string, driverId: string, actor: EventActor): Promise<void> {
  const tour = await repo.findTourForUpdate(tx, tenantId, tourId);
  if (!tour) throw new Error('planned tour vanished inside its own transaction');
  await applyTransition(tx, tenantId, at, tour, 'force_assign', 'dispatcher', { driverId, organizationId: await driverOrganization(tx, tenantId, driverId) }, actor);
}

/** The worker's claim-window expiry: a claimed tour whose window passed goes back to scheduled. */
export async function expireClaim(deps: Deps, tenantId: string, tourId: string): Promise<void> {
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const tour = await repo.findTourForUpdate(tx, tenantId, tourId);
    if (!tour || tour.status !== 'claimed' || !tour.claimExpiresAt || tour.claimExpiresAt > at) return;
    await applyTransition(tx, tenantId, at, tour, 'expire_claim', 'system', null, 'system');
    await settle(tx, deps.hooks.dispatch, { tenantId, actor: 'system', at, bookingIds: [], tourIds: [tourId], event: 'expire_claim' });
  });
}

export async function setTourPreferredDrivers(deps: Deps, actor: Actor, tourId: string, driverIds: string[]) {
  dispatchPermissions.require(actor, 'dispatch');
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const tour = await requireTour(tx, actor, tourId, { forUpdate: true });
    await checkPreferredDrivers(tx, actor.tenantId, driverIds, tour.managingOrganizationIds);
    await repo.updateTour(tx, actor.tenantId, tourId, { preferredDriverIds: driverIds, updatedAt: at });
    await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    return renderTour(tx, deps, actor, { ...tour, preferredDriverIds: driverIds });
  });
}

/**
 * PATCH /api/hailing/tours/{id} {"tour": {label?, locked?}} (decision 1643): the dispatcher's name for the tour and
 * its lock, which plans and auto-dispatch respect; a whitespace-only label is 422 at /tour/label.
 */
export async function patchTour(deps: Deps, actor: Actor, tourId: string, input: TourPatchInput) {
  dispatchPermissions.require(actor, 'dispatch');
  const at = deps.clock.now();
  const label = typeof input.label === 'string' ? input.label.trim() : input.label;
  if (label === '') throw invalidFields([{ pointer: '/tour/label', code: 'blank', detail: 'must not be blank (null removes the label)' }]);
  return deps.db.transaction(async (tx) => {
    const tour = await requireTour(tx, actor, tourId, { forUpdate: true });
    const patch = { ...(label !== undefined ? { label } : {}), ...(input.locked !== undefined ? { locked: input.locked } : {}) };
    await repo.updateTour(tx, actor.tenantId, tourId, { ...patch, updatedAt: at });
    await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    return renderTour(tx, deps, actor, { ...tour, ...patch });
  });
}

/** POST /api/hailing/tours/{id}/stops: a tour-only custom stop (no booking) at `position` (default: last). */
export async function addTourStop(deps: Deps, actor: Actor, tourId: string, input: CustomStopInput) {
  dispatchPermissions.require(actor, 'dispatch');
  const at = deps.clock.now();
  const stopId = await deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const tour = await openTourForUpdate(tx, actor, tourId);
    const service = await getService(tx, tenantId, tour.serviceId);
    if (!service) throw new Error('tour without its service');
    const existing = await stopsRepo.findStopsOfTours(tx, tenantId, [tourId]);
    if (existing.filter((s) => s.status !== 'cancelled').length + 1 > service.maxStopsPerTour) throw stopLimitReached(service.maxStopsPerTour, 'tour');
    const [row] = await buildStops(tx, tenantId, service, [input.stop], () => '/stop', at);
    const position = Math.min(input.position ?? existing.length, existing.length);
    await stopsRepo.shiftStopsOnTour(tx, tenantId, tourId, position, at);
    await stopsRepo.insertStops(tx, [{ ...row!, tourId, tourPosition: position, status: 'scheduled' }]);
    await recordEvent(tx, { tenantId, actor, type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    await settle(tx, deps.hooks.dispatch, { tenantId, actor, at, bookingIds: [], tourIds: [tourId], event: 'stop_added' });
    return row!.id;
  });
  return getStop(deps, actor, stopId);
}

/** GET /api/hailing/tours/{id}/visibility (admins): which organizations see the tour and why. */
export async function explainTourVisibility(deps: Deps, actor: Actor, tourId: string) {
  const tour = await requireTour(deps.db, actor, tourId, { action: 'explain_visibility' });
  const { organizationIds, reason } = tourOrganizations(tourFacts(tour));
  return {
    tour_id: tour.id,
    reason,
    organizations: organizationIds.map((id) => ({ organization_id: id, reason })),
    drivers_of_all_organizations: reason === 'no_managing_organizations',
  };
}
