// Place de-duplication by normalized address (contract §14, decision 1505): the key is computed here, in the places
// operations, with the shared addressKey(); the unique index places_address_key_idx enforces it.
import type { Queryable } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import type { Messages } from '../../http/i18n.ts';
import { conflict } from '../../http/errors.ts';
import { addressKey } from '../../shared/address.ts';
import { newId } from '../../shared/ids.ts';
import * as repo from './repository.ts';
import type { PlaceAddress, PlaceContact } from './tables.ts';
import type { places } from './tables.ts';

/** The key of a place's address: street, number, postcode, city, country (the additional line is not the door). */
export const placeAddressKey = (address: Pick<PlaceAddress, 'street' | 'number' | 'zip_code' | 'city' | 'country'>): string | null => addressKey(address);

export const messages: Messages = {
  'error.place_exists': { en: 'A place with this address already exists (place_id).', de: 'Ein Ort mit dieser Adresse existiert bereits (place_id).' },
};

export const PLACE_ADDRESS_INDEX = 'places_address_key_idx';

/** 409 place_exists naming the place that already has the address. */
export const placeExists = (placeId: string) => conflict('place_exists', { key: 'error.place_exists' }, { place_id: placeId });

/** Whether a database error is the address-key index refusing a second place for one address. */
export const isAddressKeyViolation = (err: unknown): boolean => uniqueViolation(err) === PLACE_ADDRESS_INDEX;

export interface PlaceByAddressInput {
  tenantId: string;
  /** The customer whose places are the scope (a customer's stop), or null for the tenant's places without one. */
  customerId: string | null;
  address: PlaceAddress;
  location: { lat: number; lng: number };
  /** The new place's name when it is created (default: the street line). */
  name?: string;
  serviceAreaId?: string | null;
  contact?: PlaceContact;
  now: Date;
}

/**
 * The tenant's place for this normalized address in the customer scope, created when there is none (address-only
 * stops, contract §14). Two concurrent calls for one address return the same place: the insert is ON CONFLICT DO
 * NOTHING on the unique index, and the loser reads the winner's row. Throws when the address has no street.
 */
export async function findOrCreatePlaceByAddress(q: Queryable, input: PlaceByAddressInput): Promise<{ place: repo.PlaceRow; created: boolean }> {
  const key = placeAddressKey(input.address);
  if (key === null) throw new Error('findOrCreatePlaceByAddress: the address has no street');
  const existing = await repo.findPlaceByAddressKey(q, input.tenantId, input.customerId, key);
  if (existing) return { place: existing, created: false };
  const row: typeof places.$inferInsert = {
    tenantId: input.tenantId,
    id: newId(),
    name: input.name ?? [input.address.street, input.address.number].filter(Boolean).join(' '),
    isHub: false,
    lat: input.location.lat,
    lng: input.location.lng,
    address: input.address,
    contact: input.contact ?? { name: null, phone_number: null, email: null, locale: null },
    serviceAreaId: input.serviceAreaId ?? null,
    customerId: input.customerId,
    metadata: {},
    createdAt: input.now,
    addressKey: key,
  };
  if (await repo.insertPlaceUnlessExists(q, row)) return { place: { ...(row as repo.PlaceRow) }, created: true };
  const winner = await repo.findPlaceByAddressKey(q, input.tenantId, input.customerId, key);
  if (!winner) throw new Error('findOrCreatePlaceByAddress: the conflicting place vanished');
  return { place: winner, created: false };
}
