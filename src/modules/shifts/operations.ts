// Shifts operations: create, list, show, update, delete a driver's shifts (docs/api-guide.md "Optimising tours and planning dispatch"; decision 1300). Writes of
// one driver's shifts are serialized (repository.lockDriverShifts) so that no two of them ever overlap.
import type { Queryable, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, invalidFields, unknownReference, unprocessable, type FieldError } from '../../http/errors.ts';
import type { Messages } from '../../http/i18n.ts';
import { decodeCursor, toPage, type Page } from '../../http/pagination.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import { getPlaces } from '../places/index.ts';
import { requireDriverShifts, requireShift } from './access.ts';
import * as repo from './repository.ts';
import type { ShiftCreateInput, ShiftListFilters, ShiftUpdateInput } from './schemas.ts';
import type { ShiftVehicle } from './tables.ts';

export const messages: Messages = {
  'shifts.overlap': { en: 'The driver already has a shift at that time.', de: 'Der Fahrer hat zu dieser Zeit bereits eine Schicht.' },
};

export function toShiftView(row: repo.ShiftRow) {
  return {
    id: row.id,
    driver_id: row.driverId,
    starts_at: iso(row.startsAt),
    ends_at: iso(row.endsAt),
    start_place_id: row.startPlaceId,
    start_location: { lat: row.startLat, lng: row.startLng },
    end_place_id: row.endPlaceId,
    end_location: row.endLat !== null && row.endLng !== null ? { lat: row.endLat, lng: row.endLng } : null,
    vehicle: row.vehicle,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
export type ShiftView = ReturnType<typeof toShiftView>;

type Where = { placeId: string | null; lat: number; lng: number };

/** A place (copied, as stops copy places) or a location; `required`: exactly one, else at most one (none → null). */
async function whereOf(q: Queryable, tenantId: string, placeId: string | null | undefined, location: { lat: number; lng: number } | null | undefined, pointer: string): Promise<Where | null> {
  if (placeId && location) throw invalidFields([{ pointer: `/shift/${pointer}_location`, code: 'exclusive', detail: `give ${pointer}_place_id or ${pointer}_location, not both` }]);
  if (placeId) {
    const [place] = await getPlaces(q, tenantId, [placeId]);
    if (!place) throw unknownReference(`/shift/${pointer}_place_id`, 'place');
    return { placeId, lat: place.lat, lng: place.lng };
  }
  return location ? { placeId: null, lat: location.lat, lng: location.lng } : null;
}

function checkTimes(startsAt: Date, endsAt: Date): void {
  if (endsAt.getTime() <= startsAt.getTime()) throw invalidFields([{ pointer: '/shift/ends_at', code: 'not_after_start', detail: 'must be after starts_at' }]);
}

/** Under the driver's shift lock: refuses a shift that overlaps another of the same driver. */
async function refuseOverlap(tx: Tx, tenantId: string, driverId: string, startsAt: Date, endsAt: Date, exceptId: string | null): Promise<void> {
  await repo.lockDriverShifts(tx, tenantId, driverId);
  const [other] = await repo.findOverlapping(tx, tenantId, driverId, startsAt, endsAt, exceptId);
  if (!other) return;
  const errors: FieldError[] = [{ pointer: '/shift/starts_at', code: 'shift_overlap', detail: `overlaps shift ${other.id} (${iso(other.startsAt)} to ${iso(other.endsAt)})` }];
  throw unprocessable('shift_overlap', { key: 'shifts.overlap' }, errors, { conflicting_shift_id: other.id });
}

const vehicleOf = (input: ShiftCreateInput['vehicle']): ShiftVehicle | null => (input ? { capacity: { ...input.capacity }, skills: input.skills ?? [] } : null);

export async function createShift(deps: Deps, actor: Actor, driverId: string, input: ShiftCreateInput): Promise<ShiftView> {
  const startsAt = new Date(input.starts_at);
  const endsAt = new Date(input.ends_at);
  return deps.db.transaction(async (tx) => {
    if ((await requireDriverShifts(tx, actor, driverId)) !== 'write') throw forbidden();
    checkTimes(startsAt, endsAt);
    const start = await whereOf(tx, actor.tenantId, input.start_place_id, input.start_location, 'start');
    if (!start) throw invalidFields([{ pointer: '/shift/start_location', code: 'required', detail: 'give start_place_id or start_location' }]);
    const end = await whereOf(tx, actor.tenantId, input.end_place_id, input.end_location, 'end');
    await refuseOverlap(tx, actor.tenantId, driverId, startsAt, endsAt, null);
    const now = deps.clock.now();
    const row: repo.ShiftRow = {
      tenantId: actor.tenantId,
      id: newId(),
      driverId,
      startsAt,
      endsAt,
      startPlaceId: start.placeId,
      startLat: start.lat,
      startLng: start.lng,
      endPlaceId: end?.placeId ?? null,
      endLat: end?.lat ?? null,
      endLng: end?.lng ?? null,
      vehicle: vehicleOf(input.vehicle),
      createdAt: now,
      updatedAt: now,
    };
    await repo.insertShift(tx, row);
    return toShiftView(row);
  });
}

export async function listShifts(deps: Deps, actor: Actor, driverId: string, query: { filters?: ShiftListFilters; limit?: number; cursor?: string }): Promise<Page<ShiftView>> {
  await requireDriverShifts(deps.db, actor, driverId);
  const limit = query.limit ?? 25;
  const after = decodeCursor(query.cursor, 2);
  const rows = await repo.listShifts(deps.db, actor.tenantId, {
    driverId,
    from: query.filters?.from ? new Date(query.filters.from) : undefined,
    to: query.filters?.to ? new Date(query.filters.to) : undefined,
    after: after && typeof after[0] === 'string' && typeof after[1] === 'string' ? [new Date(after[0]), after[1]] : null,
    limit,
  });
  const page = toPage(rows, limit, (row) => [iso(row.startsAt), row.id]);
  return { items: page.items.map(toShiftView), meta: page.meta };
}

export async function getShift(deps: Deps, actor: Actor, id: string): Promise<ShiftView> {
  return toShiftView(await requireShift(deps.db, actor, id));
}

export async function updateShift(deps: Deps, actor: Actor, id: string, input: ShiftUpdateInput): Promise<ShiftView> {
  return deps.db.transaction(async (tx) => {
    const found = await requireShift(tx, actor, id, { write: true });
    // Lock first, then read again: a concurrent write of the same driver's shifts has committed or waits.
    await repo.lockDriverShifts(tx, actor.tenantId, found.driverId);
    const row = (await repo.findShift(tx, actor.tenantId, id)) ?? found;
    const startsAt = input.starts_at ? new Date(input.starts_at) : row.startsAt;
    const endsAt = input.ends_at ? new Date(input.ends_at) : row.endsAt;
    checkTimes(startsAt, endsAt);
    const patch: Parameters<typeof repo.updateShift>[3] = { startsAt, endsAt, updatedAt: deps.clock.now() };
    const start = await whereOf(tx, actor.tenantId, input.start_place_id, input.start_location, 'start');
    if (start) Object.assign(patch, { startPlaceId: start.placeId, startLat: start.lat, startLng: start.lng });
    const endGiven = input.end_place_id !== undefined || input.end_location !== undefined;
    if (endGiven) {
      const end = await whereOf(tx, actor.tenantId, input.end_place_id, input.end_location, 'end');
      Object.assign(patch, { endPlaceId: end?.placeId ?? null, endLat: end?.lat ?? null, endLng: end?.lng ?? null });
    }
    if (input.vehicle !== undefined) patch.vehicle = vehicleOf(input.vehicle ?? undefined);
    await refuseOverlap(tx, actor.tenantId, row.driverId, startsAt, endsAt, id);
    await repo.updateShift(tx, actor.tenantId, id, patch);
    return toShiftView({ ...row, ...patch });
  });
}

export async function deleteShift(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await requireShift(tx, actor, id, { write: true });
    await repo.deleteShift(tx, actor.tenantId, id);
  });
}

/** For planning: the shifts of these drivers overlapping [from, to), earliest first (no access check: the caller's). */
export async function shiftsOfDrivers(q: Queryable, tenantId: string, driverIds: readonly string[], from: Date, to: Date): Promise<ShiftView[]> {
  return (await repo.findShiftsOfDrivers(q, tenantId, driverIds, from, to)).map(toShiftView);
}

/** For planning with named shifts: these shifts, earliest first; unknown ids are absent (no access check: the caller's). */
export async function shiftsByIds(q: Queryable, tenantId: string, ids: readonly string[]): Promise<ShiftView[]> {
  return (await repo.findShifts(q, tenantId, ids)).map(toShiftView);
}
