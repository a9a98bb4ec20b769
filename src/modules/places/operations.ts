// Places operations: list, show, create, update, delete, fork and metadata, each checked against the permission matrix.
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { invalidFields, unknownReference } from '../../http/errors.ts';
import { decodeCursor, toPage, type Page } from '../../http/pagination.ts';
import { checkContact } from '../../shared/contact.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import { findServiceArea, findUser } from '../identity/index.ts';
import { placeScopeOf, requirePlace, requirePlaceAction } from './access.ts';
import { ownPlacesOnly } from './permissions.ts';
import * as repo from './repository.ts';
import type { PlaceCreateInput, PlaceListFilters, PlaceUpdateInput } from './schemas.ts';
import type { PlaceAddress, PlaceContact } from './tables.ts';

export function toPlaceView(row: repo.PlaceRow) {
  return {
    id: row.id,
    name: row.name,
    is_hub: row.isHub,
    location: { lat: row.lat, lng: row.lng },
    address: row.address,
    contact: row.contact,
    service_area_id: row.serviceAreaId,
    customer_id: row.customerId,
    metadata: row.metadata,
    created_at: iso(row.createdAt),
  };
}
export type PlaceView = ReturnType<typeof toPlaceView>;

const toAddress = (input: PlaceCreateInput['address']): PlaceAddress => ({
  street: input.street,
  number: input.number ?? null,
  zip_code: input.zip_code ?? null,
  city: input.city,
  country: input.country ?? null,
  additional_line: input.additional_line ?? null,
});

/**
 * The contact as stored: e-mail checked, phone number in E.164 read in the place's service area's country when it has
 * no "+" (contract §14, decision 1561); 422 at `/place/contact/…` otherwise.
 */
function toContact(input: PlaceCreateInput['contact'], country: string | null): PlaceContact {
  const { contact, errors } = checkContact(input ?? {}, country, '/place/contact');
  if (errors.length) throw invalidFields(errors);
  return { name: contact.name ?? null, phone_number: contact.phone_number ?? null, email: contact.email ?? null, locale: contact.locale ?? null };
}

/**
 * Referenced ids must exist in the tenant; a customer may only name itself as the place's customer. Returns the
 * country of the place's service area (`areaId`: the one it keeps when the input names none), for its contact.
 */
async function checkReferences(
  tx: Tx,
  actor: Actor,
  input: { service_area_id?: string | null; customer_id?: string | null },
  areaId: string | null = null,
): Promise<{ countryCode: string | null }> {
  const serviceAreaId = input.service_area_id !== undefined ? input.service_area_id : areaId;
  const area = serviceAreaId ? await findServiceArea(tx, actor.tenantId, serviceAreaId) : null;
  if (input.service_area_id && !area) throw unknownReference('/place/service_area_id', 'service area');
  if (input.customer_id) {
    const customer = ownPlacesOnly(actor) && input.customer_id !== actor.userId ? null : await findUser(tx, actor.tenantId, input.customer_id);
    if (!customer || customer.role !== 'customer') throw unknownReference('/place/customer_id', 'customer');
  }
  return { countryCode: area?.countryCode ?? null };
}

export async function listPlaces(
  deps: Deps,
  actor: Actor,
  query: { filters?: PlaceListFilters; limit?: number; cursor?: string },
): Promise<Page<PlaceView>> {
  requirePlaceAction(actor, 'index');
  const filters = query.filters ?? {};
  const limit = query.limit ?? 25;
  const [afterId] = decodeCursor(query.cursor) ?? [null];
  const scope = placeScopeOf(actor);
  if (scope && filters.customer_id && filters.customer_id !== scope) return { items: [], meta: { next_cursor: null, has_more: false } };
  const rows = await repo.listPlaces(deps.db, actor.tenantId, {
    customerId: scope ?? filters.customer_id,
    serviceAreaId: filters.service_area_id,
    isHub: filters.is_hub,
    afterId: typeof afterId === 'string' ? afterId : null,
    limit,
  });
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toPlaceView), meta: page.meta };
}

/** The benchmark route: one primary-key SELECT after authentication. */
export async function getPlace(deps: Deps, actor: Actor, id: string): Promise<PlaceView> {
  const row = await requirePlace(deps.db, actor, id, { action: 'show' });
  return toPlaceView(row);
}

export async function createPlace(deps: Deps, actor: Actor, input: PlaceCreateInput): Promise<PlaceView> {
  requirePlaceAction(actor, 'create');
  if (input.metadata !== undefined) requirePlaceAction(actor, 'metadata');
  const id = newId();
  return deps.db.transaction(async (tx) => {
    const { countryCode } = await checkReferences(tx, actor, input);
    await repo.insertPlace(tx, {
      tenantId: actor.tenantId,
      id,
      name: input.name,
      isHub: input.is_hub ?? false,
      lat: input.location.lat,
      lng: input.location.lng,
      address: toAddress(input.address),
      contact: toContact(input.contact, countryCode),
      serviceAreaId: input.service_area_id ?? null,
      // A customer's places are always its own.
      customerId: placeScopeOf(actor) ?? input.customer_id ?? null,
      metadata: input.metadata ?? {},
      createdAt: deps.clock.now(),
    });
    return toPlaceView(await loadPlace(tx, actor.tenantId, id));
  });
}

export async function updatePlace(deps: Deps, actor: Actor, id: string, input: PlaceUpdateInput): Promise<PlaceView> {
  requirePlaceAction(actor, 'update');
  if (input.metadata !== undefined) requirePlaceAction(actor, 'metadata');
  return deps.db.transaction(async (tx) => {
    const current = await requirePlace(tx, actor, id, { forUpdate: true });
    const { countryCode } = await checkReferences(tx, actor, input, current.serviceAreaId);
    const patch: Parameters<typeof repo.updatePlace>[3] = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.is_hub !== undefined) patch.isHub = input.is_hub;
    if (input.location) Object.assign(patch, { lat: input.location.lat, lng: input.location.lng });
    if (input.address) patch.address = toAddress(input.address);
    if (input.contact) patch.contact = toContact(input.contact, countryCode);
    if (input.service_area_id !== undefined) patch.serviceAreaId = input.service_area_id;
    if (input.customer_id !== undefined && !placeScopeOf(actor)) patch.customerId = input.customer_id;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    await repo.updatePlace(tx, actor.tenantId, id, patch);
    return toPlaceView(await loadPlace(tx, actor.tenantId, id));
  });
}

export async function replacePlaceMetadata(deps: Deps, actor: Actor, id: string, metadata: Record<string, unknown>): Promise<PlaceView> {
  requirePlaceAction(actor, 'metadata');
  return deps.db.transaction(async (tx) => {
    const row = await requirePlace(tx, actor, id, { forUpdate: true });
    await repo.updatePlace(tx, actor.tenantId, id, { metadata });
    return toPlaceView({ ...row, metadata });
  });
}

/** A new place with the same fields; stops built from the original keep pointing at it. */
export async function forkPlace(deps: Deps, actor: Actor, id: string): Promise<PlaceView> {
  requirePlaceAction(actor, 'fork');
  return deps.db.transaction(async (tx) => {
    const source = await requirePlace(tx, actor, id);
    const copy = { ...source, id: newId(), createdAt: deps.clock.now() };
    await repo.insertPlace(tx, copy);
    return toPlaceView(copy);
  });
}

/** Stops copy a place's location, address and contact, so deleting a place never changes a stop. */
export async function deletePlace(deps: Deps, actor: Actor, id: string): Promise<void> {
  requirePlaceAction(actor, 'destroy');
  await deps.db.transaction(async (tx) => {
    await requirePlace(tx, actor, id, { forUpdate: true });
    await repo.deletePlace(tx, actor.tenantId, id);
  });
}

async function loadPlace(tx: Tx, tenantId: string, id: string): Promise<repo.PlaceRow> {
  const row = await repo.findPlace(tx, tenantId, id);
  if (!row) throw new Error('place vanished inside its own transaction');
  return row;
}
