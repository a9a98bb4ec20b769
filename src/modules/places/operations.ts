// Places operations: list, show, create, update, delete, fork and metadata, each checked against the permission matrix.
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { unknownReference } from '../../http/errors.ts';
import { decodeCursor, toPage, type Page } from '../../http/pagination.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import { findServiceArea, findUser } from '../identity/index.ts';
import { placeScopeOf, requirePlace, requirePlaceAction } from './access.ts';
import { isAddressKeyViolation, placeAddressKey, placeExists } from './address-key.ts';
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

const toContact = (input: PlaceCreateInput['contact']): PlaceContact => ({
  name: input?.name ?? null,
  phone_number: input?.phone_number ?? null,
  email: input?.email ?? null,
  locale: input?.locale ?? null,
});

/** Referenced ids must exist in the tenant; a customer may only name itself as the place's customer. */
async function checkReferences(tx: Tx, actor: Actor, input: { service_area_id?: string | null; customer_id?: string | null }): Promise<void> {
  if (input.service_area_id && !(await findServiceArea(tx, actor.tenantId, input.service_area_id))) {
    throw unknownReference('/place/service_area_id', 'service area');
  }
  if (input.customer_id) {
    const customer = ownPlacesOnly(actor) && input.customer_id !== actor.userId ? null : await findUser(tx, actor.tenantId, input.customer_id);
    if (!customer || customer.role !== 'customer') throw unknownReference('/place/customer_id', 'customer');
  }
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
    await checkReferences(tx, actor, input);
    const address = toAddress(input.address);
    const customerId = placeScopeOf(actor) ?? input.customer_id ?? null;
    const key = placeAddressKey(address);
    const inserted = await repo.insertPlaceUnlessExists(tx, {
      tenantId: actor.tenantId,
      id,
      name: input.name,
      isHub: input.is_hub ?? false,
      lat: input.location.lat,
      lng: input.location.lng,
      address,
      contact: toContact(input.contact),
      serviceAreaId: input.service_area_id ?? null,
      // A customer's places are always its own.
      customerId,
      metadata: input.metadata ?? {},
      createdAt: deps.clock.now(),
      addressKey: key,
    });
    // One place per normalized address and customer scope (contract §14): the unique index decides, not a read.
    if (!inserted) throw placeExists((await repo.findPlaceByAddressKey(tx, actor.tenantId, customerId, key!))!.id);
    return toPlaceView(await loadPlace(tx, actor.tenantId, id));
  });
}

export async function updatePlace(deps: Deps, actor: Actor, id: string, input: PlaceUpdateInput): Promise<PlaceView> {
  requirePlaceAction(actor, 'update');
  if (input.metadata !== undefined) requirePlaceAction(actor, 'metadata');
  return deps.db.transaction(async (tx) => {
    const current = await requirePlace(tx, actor, id, { forUpdate: true });
    await checkReferences(tx, actor, input);
    const patch: Parameters<typeof repo.updatePlace>[3] = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.is_hub !== undefined) patch.isHub = input.is_hub;
    if (input.location) Object.assign(patch, { lat: input.location.lat, lng: input.location.lng });
    if (input.address) patch.address = toAddress(input.address);
    if (input.contact) patch.contact = toContact(input.contact);
    if (input.service_area_id !== undefined) patch.serviceAreaId = input.service_area_id;
    if (input.customer_id !== undefined && !placeScopeOf(actor)) patch.customerId = input.customer_id;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    if (patch.address) patch.addressKey = placeAddressKey(patch.address);
    const customerId = patch.customerId !== undefined ? patch.customerId : current.customerId;
    try {
      // A savepoint: the address index refusing the change leaves the transaction usable to name the other place.
      await tx.transaction(async (sp) => repo.updatePlace(sp, actor.tenantId, id, patch));
    } catch (err) {
      if (!isAddressKeyViolation(err)) throw err;
      const key = patch.addressKey !== undefined ? patch.addressKey : current.addressKey;
      const other = key ? await repo.findPlaceByAddressKey(tx, actor.tenantId, customerId, key) : null;
      throw other ? placeExists(other.id) : err;
    }
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
    // A fork is a second place for the same door on purpose: it stays outside the address index (decision 1505).
    const copy = { ...source, id: newId(), createdAt: deps.clock.now(), addressKey: null };
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
