// Packages: allocation with shortcodes, lookup, removal from a tour, forced delivery, announce/cancel, history.
import type { Queryable, Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, invalidFields, invalidTransition, unprocessable, type FieldError } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { newId } from '../../../shared/ids.ts';
import { getService } from '../../services/index.ts';
import { compactTour } from '../tours/merge-and-insert.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import type { FailureRules } from '../hooks.ts';
import { appendPackageReattempts, checkPackageFailures } from './package-failures.ts';
import { isOpenTour } from '../tours/index.ts';
import { requireDispatcher, requirePackage, seesTour } from '../access.ts';
import { dispatchPermissions } from '../permissions.ts';
import { bookingsRepository as repo } from '../bookings/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import * as packagesRepo from './repository.ts';
import type { ForceDeliveryInput } from '../bookings/index.ts';
import { readProofImage, recordProofFiles, withPreparedProof } from '../proof-files/index.ts';
import { newShortcode, normalizeShortcode } from './shortcodes.ts';
import type { NewStopRow } from '../stops/index.ts';
import type { packageHistory, packages as packagesTable} from '../tables.ts';
import { type PackageStatus, type ProofFileKind } from '../tables.ts';
import { renderPackages } from './render-packages.ts';

export const OPEN_PACKAGE_STATUSES: readonly PackageStatus[] = ['created', 'awaiting_pickup', 'in_transit'];

export const messages: Messages = {
  'package.proof_required': { en: 'The service requires this proof for a forced delivery: {kinds}.', de: 'Der Service verlangt für eine erzwungene Zustellung diesen Nachweis: {kinds}.' },
  'package.transition_removed': {
    en: 'The force_delivery transition is removed; use POST /api/hailing/packages/{id}/force_delivery.',
    de: 'Der Übergang force_delivery wurde entfernt; verwenden Sie POST /api/hailing/packages/{id}/force_delivery.',
  },
  'package.not_removable': { en: 'The package’s stops are not on an open tour or are already under way.', de: 'Die Stopps des Pakets sind auf keiner offenen Tour oder bereits in Bearbeitung.' },
};

interface PackageInput {
  external_label?: string | null;
  description?: string | null;
  weight_grams?: number | null;
  pickup_stop_index: number;
  dropoff_stop_index: number;
}

type NewPackageRow = typeof packagesTable.$inferInsert & { id: string };
type NewPackageHistoryRow = typeof packageHistory.$inferInsert;

/**
 * The booking's packages with their first history entries, checked and ready to insert with the booking. Each draws a
 * random shortcode; the unique index decides at the insert (no read first), and `redrawShortcodes` draws again in the
 * rare case (31^8 codes) one is taken.
 */
export async function preparePackages(
  q: Queryable,
  actor: Actor,
  booking: repo.BookingRow,
  stops: NewStopRow[],
  inputs: PackageInput[],
  at: Date,
): Promise<{ packages: NewPackageRow[]; history: NewPackageHistoryRow[] }> {
  if (!inputs.length) return { packages: [], history: [] };
  const errors: FieldError[] = [];
  inputs.forEach((p, i) => {
    if (p.pickup_stop_index >= stops.length) errors.push({ pointer: `/booking/packages/${i}/pickup_stop_index`, code: 'invalid_value', detail: 'names no stop' });
    if (p.dropoff_stop_index >= stops.length) errors.push({ pointer: `/booking/packages/${i}/dropoff_stop_index`, code: 'invalid_value', detail: 'names no stop' });
    else if (p.dropoff_stop_index <= p.pickup_stop_index) {
      errors.push({ pointer: `/booking/packages/${i}/dropoff_stop_index`, code: 'dropoff_before_pickup', detail: 'must come after the pickup stop' });
    }
  });
  errors.push(...(await externalLabelErrors(q, booking.tenantId, inputs)));
  if (errors.length) throw invalidFields(errors);
  const packages = inputs.map(
    (p): NewPackageRow => ({
      tenantId: booking.tenantId,
      id: newId(),
      bookingId: booking.id,
      shortcode: newShortcode(),
      externalLabel: p.external_label ?? null,
      status: 'created',
      pickupStopId: stops[p.pickup_stop_index]!.id!,
      dropoffStopId: stops[p.dropoff_stop_index]!.id!,
      description: p.description ?? null,
      weightGrams: p.weight_grams ?? null,
      createdAt: at,
      updatedAt: at,
    }),
  );
  const history = packages.map((r): NewPackageHistoryRow => ({ tenantId: r.tenantId, id: newId(), packageId: r.id, at, event: 'created', actorId: actor.userId }));
  return { packages, history };
}

/** External labels already used by an open package of the tenant, or twice in `inputs`. */
export async function externalLabelErrors(q: Queryable, tenantId: string, inputs: Pick<PackageInput, 'external_label'>[]): Promise<FieldError[]> {
  const labels = inputs.map((p) => p.external_label).filter((l): l is string => !!l);
  const taken = await packagesRepo.openExternalLabelsTaken(q, tenantId, labels);
  return inputs.flatMap((p, i) => {
    const label = p.external_label;
    return label && (taken.has(label) || labels.indexOf(label) !== labels.lastIndexOf(label))
      ? [{ pointer: `/booking/packages/${i}/external_label`, code: 'taken', detail: 'is already used by an open package' }]
      : [];
  });
}

/** The package's stops that sit on open tours, with those tours. */
async function openTourStops(tx: Tx, tenantId: string, pkg: packagesRepo.PackageRow) {
  const stops = (await stopsRepo.findStops(tx, tenantId, [pkg.pickupStopId, pkg.dropoffStopId])).filter((s) => s.tourId !== null);
  const tours = (await toursRepo.findTours(tx, tenantId, stops.map((s) => s.tourId!))).filter((t) => isOpenTour(t.status));
  return { stops: stops.filter((s) => tours.some((t) => t.id === s.tourId)), tours };
}

/** docs/api-guide.md "Bookings, stops and tours": admin or manager who sees the tour, package not yet delivered, its stops on an open tour. */
async function isRemovable(tx: Tx, actor: Actor, pkg: packagesRepo.PackageRow): Promise<boolean> {
  if (!dispatchPermissions.may(actor, 'dispatch')) return false;
  if (!OPEN_PACKAGE_STATUSES.includes(pkg.status)) return false;
  const { stops, tours } = await openTourStops(tx, actor.tenantId, pkg);
  return stops.length > 0 && tours.every((t) => seesTour(actor, t)) && stops.every((s) => s.status === 'scheduled');
}

export async function lookupPackage(deps: Deps, actor: Actor, code: { shortcode?: string; external_label?: string }) {
  return deps.db.transaction(async (tx) => {
    const found = await packagesRepo.findPackageByCode(
      tx,
      actor.tenantId,
      code.shortcode !== undefined ? { shortcode: normalizeShortcode(code.shortcode) } : { externalLabel: code.external_label ?? '' },
    );
    const { pkg } = await requirePackage(tx, actor, { loaded: found });
    const [view] = await renderPackages(tx, actor.tenantId, [pkg]);
    return { ...view!, permissions: { removable: await isRemovable(tx, actor, pkg) } };
  });
}

async function appendHistory(tx: Tx, actor: Actor, pkg: packagesRepo.PackageRow, at: Date, entry: { event: string; stopId?: string | null; tourId?: string | null; reasonKey?: string | null; note?: string | null }) {
  await packagesRepo.insertPackageHistory(tx, [
    { tenantId: actor.tenantId, id: newId(), packageId: pkg.id, at, actorId: actor.userId, event: entry.event, stopId: entry.stopId ?? null, tourId: entry.tourId ?? null, reasonKey: entry.reasonKey ?? null, note: entry.note ?? null },
  ]);
}

/** Takes the package's stops off their open tour, back to waiting for dispatch; the history keeps the tour. */
export async function removePackageFromTour(deps: Deps, actor: Actor, packageId: string) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const preview = await requirePackage(tx, actor, { loaded: await packagesRepo.findPackage(tx, actor.tenantId, packageId) });
    const { tours } = await openTourStops(tx, actor.tenantId, preview.pkg);
    await toursRepo.findToursForUpdate(tx, actor.tenantId, tours.map((t) => t.id));
    await repo.findBookingsForUpdate(tx, actor.tenantId, [preview.booking.id]);
    const pkg = (await packagesRepo.findPackageForUpdate(tx, actor.tenantId, packageId))!;
    if (!(await isRemovable(tx, actor, pkg))) throw conflict('package_not_removable', { key: 'package.not_removable' });
    const { stops } = await openTourStops(tx, actor.tenantId, pkg);
    for (const stop of stops) {
      await stopsRepo.updateStop(tx, actor.tenantId, stop.id, { tourId: null, tourPosition: null, status: 'to_be_dispatched', updatedAt: at });
      await appendHistory(tx, actor, pkg, at, { event: 'removed_from_tour', stopId: stop.id, tourId: stop.tourId });
    }
    for (const tour of tours) {
      await compactTour(tx, actor.tenantId, tour.id, at);
      await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'tour.modified', resourceId: tour.id, at, data: tourEventData(tour) });
    }
    await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'booking.route_changed', resourceId: preview.booking.id, at, data: bookingEventData(preview.booking) });
    await settle(tx, deps.hooks.dispatch, {
      tenantId: actor.tenantId,
      actor,
      at,
      bookingIds: [preview.booking.id],
      tourIds: tours.map((t) => t.id),
      event: 'package_removed',
    });
    const [view] = await renderPackages(tx, actor.tenantId, [(await packagesRepo.findPackage(tx, actor.tenantId, packageId))!]);
    return view!;
  });
}

/**
 * GET /api/hailing/packages/{id}/proof/{photo|signature}: an image of a forced delivery's proof, for whoever sees the
 * package's booking (decision 1250); 404 otherwise and when there is no such image (any more).
 */
export async function getPackageProofImage(deps: Deps, actor: Actor, packageId: string, kind: ProofFileKind) {
  await requirePackage(deps.db, actor, { loaded: await packagesRepo.findPackage(deps.db, actor.tenantId, packageId) });
  return readProofImage(deps, actor.tenantId, { ownerKind: 'package', ownerId: packageId }, kind);
}

/** POST /api/hailing/packages/{id}/force_delivery: delivered now, with the proof the service requires. */
export async function forceDelivery(deps: Deps, actor: Actor, packageId: string, input: ForceDeliveryInput) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  // The images are checked and sealed first, and their blobs removed again if the delivery is refused (decision 1250).
  return withPreparedProof(deps, actor.tenantId, input.proof, (prepared) => deps.db.transaction(async (tx) => {
    const { booking } = await requirePackage(tx, actor, { loaded: await packagesRepo.findPackage(tx, actor.tenantId, packageId) });
    await repo.findBookingsForUpdate(tx, actor.tenantId, [booking.id]);
    const pkg = (await packagesRepo.findPackageForUpdate(tx, actor.tenantId, packageId))!;
    if (!OPEN_PACKAGE_STATUSES.includes(pkg.status)) throw invalidTransition('package', pkg.status, 'delivered');
    const service = await getService(tx, actor.tenantId, booking.serviceId);
    const proof = input.proof ?? {};
    const missing = (service?.forceDeliveryProof ?? []).filter((kind) => !proof[kind]);
    if (missing.length) {
      throw unprocessable(
        'proof_required',
        { key: 'package.proof_required', params: { kinds: missing.join(', ') } },
        missing.map((kind) => ({ pointer: `/proof/${kind}`, code: 'required', detail: 'is required by the service' })),
        { missing_proof: missing },
      );
    }
    await packagesRepo.updatePackage(tx, actor.tenantId, pkg.id, { status: 'delivered', forcedDelivery: { at: at.toISOString(), by_user_id: actor.userId, proof: prepared?.stored ?? {} }, updatedAt: at });
    await recordProofFiles(tx, prepared, [{ ownerKind: 'package', ownerId: pkg.id }], at);
    await appendHistory(tx, actor, pkg, at, { event: 'force_delivered', stopId: pkg.dropoffStopId, note: proof.note ?? null });
    await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'booking.modified', resourceId: booking.id, at, data: bookingEventData(booking) });
    const [view] = await renderPackages(tx, actor.tenantId, [(await packagesRepo.findPackage(tx, actor.tenantId, packageId))!]);
    return view!;
  }));
}

const PACKAGE_EVENTS: Record<string, { from: readonly PackageStatus[]; to: PackageStatus }> = {
  announce: { from: ['created'], to: 'awaiting_pickup' },
  cancel: { from: ['created', 'awaiting_pickup'], to: 'cancelled' },
};

/** POST /api/hailing/packages/{id}/transition {event: announce|cancel}; the generic force_delivery is removed. */
export async function transitionPackage(deps: Deps, actor: Actor, packageId: string, event: string) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // Visibility first: a package the caller cannot see is a 404 whatever the event names.
    const { booking } = await requirePackage(tx, actor, { loaded: await packagesRepo.findPackage(tx, actor.tenantId, packageId) });
    if (event === 'force_delivery') {
      throw unprocessable('transition_removed', { key: 'package.transition_removed' }, [{ pointer: '/event', code: 'transition_removed', detail: 'use the force_delivery route' }], {
        successor: `/api/hailing/packages/${packageId}/force_delivery`,
      });
    }
    // An own property only: event names like `constructor` must not reach Object.prototype.
    const transition = Object.hasOwn(PACKAGE_EVENTS, event) ? PACKAGE_EVENTS[event] : undefined;
    if (!transition) throw invalidFields([{ pointer: '/event', code: 'invalid_value', detail: 'must be announce or cancel' }]);
    await repo.findBookingsForUpdate(tx, actor.tenantId, [booking.id]);
    const pkg = (await packagesRepo.findPackageForUpdate(tx, actor.tenantId, packageId))!;
    if (!transition.from.includes(pkg.status)) throw invalidTransition('package', pkg.status, transition.to);
    await packagesRepo.updatePackage(tx, actor.tenantId, pkg.id, { status: transition.to, updatedAt: at });
    await appendHistory(tx, actor, pkg, at, { event: transition.to });
    await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'booking.modified', resourceId: booking.id, at, data: bookingEventData(booking) });
    const [view] = await renderPackages(tx, actor.tenantId, [(await packagesRepo.findPackage(tx, actor.tenantId, packageId))!]);
    return view!;
  });
}

export interface PackageResult {
  id: string;
  result: 'picked_up' | 'delivered' | 'failed';
  reason_key?: string | undefined;
  note?: string | undefined;
}

/**
 * Package outcomes when stops complete: what the driver reported, else picked up at a pickup and delivered at a
 * drop-off. Results naming packages that are not handled at `stops` are a 422 on their pointer.
 */
export async function applyPackageResults(tx: Tx, actor: Actor, rules: FailureRules, stops: stopsRepo.StopRow[], results: PackageResult[], at: Date): Promise<void> {
  const packages = await packagesRepo.findPackagesOfStops(tx, actor.tenantId, stops.map((s) => s.id));
  const errors: FieldError[] = [];
  results.forEach((r, i) => {
    const pkg = packages.find((p) => p.id === r.id);
    if (!pkg) errors.push({ pointer: `/packages/${i}/id`, code: 'unknown_reference', detail: 'is not handled at this stop' });
    else if (r.result === 'picked_up' && !stops.some((s) => s.id === pkg.pickupStopId)) errors.push({ pointer: `/packages/${i}/result`, code: 'invalid_value', detail: 'is not its pickup stop' });
    else if (r.result === 'delivered' && !stops.some((s) => s.id === pkg.dropoffStopId)) errors.push({ pointer: `/packages/${i}/result`, code: 'invalid_value', detail: 'is not its drop-off stop' });
  });
  if (errors.length) throw invalidFields(errors);
  // Failure reasons (package-failures.ts): checked before any write; their reattempts are appended below.
  const reattempts = await checkPackageFailures(tx, actor, rules, stops, packages, results);
  for (const pkg of packages) {
    if (!OPEN_PACKAGE_STATUSES.includes(pkg.status)) continue;
    const stop = stops.find((s) => s.id === pkg.pickupStopId || s.id === pkg.dropoffStopId)!;
    const atPickup = stop.id === pkg.pickupStopId;
    const reported = results.find((r) => r.id === pkg.id);
    const reportedOrDefault = reported?.result ?? (atPickup ? 'picked_up' : 'delivered');
    // A return stop hands the package back to its sender: it is returned, not delivered (docs/api-guide.md "Bookings, stops and tours").
    const result = reportedOrDefault === 'delivered' && stop.recoveryKind === 'return' ? 'returned' : reportedOrDefault;
    const status: PackageStatus = result === 'picked_up' ? 'in_transit' : result;
    if (atPickup && pkg.status === 'in_transit') continue;
    await packagesRepo.updatePackage(tx, actor.tenantId, pkg.id, { status, updatedAt: at });
    await appendHistory(tx, actor, pkg, at, { event: result, stopId: stop.id, tourId: stop.tourId, reasonKey: reported?.reason_key ?? null, note: reported?.note ?? null });
  }
  await appendPackageReattempts(tx, actor, rules, reattempts, at);
}
