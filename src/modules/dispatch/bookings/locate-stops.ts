// Address-only stops (contract §14, decision 1562): a StopInput with `address` and neither `location` nor `place_id`
// is located before anything is written — no network inside a transaction — from the tenant's place for that
// normalized address (a customer's own places for a customer's booking), else by the geocoder; the place is reused,
// or made with the booking so that a corrected or hand-pinned place is what the next import finds.
import type { Queryable } from '../../../db/client.ts';
import { AppError, type FieldError } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { splitStreetLine } from '../../../shared/address.ts';
import { findOrCreatePlaceByAddress, findPlaceByAddressKey, placeAddressKey, type PlaceAddress } from '../../places/index.ts';
import { groupForNewStop, type LocatedStop } from '../stops/index.ts';
import type { StopInputT } from './schemas.ts';
import type { NewBooking } from './repository.ts';

export const messages: Messages = {
  'booking.address_not_found': {
    en: 'An address of the booking could not be located precisely enough (a street at least): see errors.',
    de: 'Eine Adresse der Buchung ließ sich nicht genau genug finden (mindestens die Straße): siehe errors.',
  },
};

/** What a geocoder answers for one address (the region's, contract §14); null: nothing usable. */
export interface GeocodeCandidate {
  label: string;
  location: { lat: number; lng: number };
  precision: 'house' | 'street' | 'postcode' | 'city';
  source: string;
  fuzzy?: boolean;
}

/** The geocoder seam: best is the candidate a stop may be placed on, closest what to name when there is none. */
export type Geocode = (
  q: Queryable,
  tenantId: string,
  address: PlaceAddress,
  scope: { customerId: string | null; serviceAreaId: string },
) => Promise<{ best: GeocodeCandidate | null; closest: GeocodeCandidate | null }>;

/** An address-only stop located without a place yet: the place is made with the booking (see `withNewPlaces`). */
export interface PendingPlace {
  index: number;
  address: PlaceAddress;
  location: { lat: number; lng: number };
}

export const isAddressOnly = (input: StopInputT): boolean => !!input.address && !input.location && !input.place_id;

/**
 * The stop's address as a place's: a street line that carries its number ("Bd d'Italie 54", "54 bd d'Italie") is
 * split first, so that it keys, geocodes and is stored like the same address given in two fields (decision 1680).
 */
function toPlaceAddress(a: NonNullable<StopInputT['address']>): PlaceAddress {
  const line = a.number ? { street: a.street, number: a.number } : splitStreetLine(a.street);
  return {
    street: line.street,
    number: line.number ?? null,
    zip_code: a.zip_code ?? null,
    city: a.city,
    country: a.country ?? null,
    additional_line: a.additional_line ?? null,
  };
}

const FINE_ENOUGH = new Set(['house', 'street']);

/**
 * Locates the address-only inputs: each by the place of its normalized address, else by `geocode`. Every address
 * not found (or found no finer than a postcode or city, or only fuzzily) is 422 `address_not_found` at
 * `/booking/stops/N/address`, naming the closest match when there is one. Inputs of one address are located once.
 */
export async function locateStops(
  q: Queryable,
  geocode: Geocode | null,
  tenantId: string,
  scope: { customerId: string | null; serviceAreaId: string },
  inputs: StopInputT[],
  pointerOf: (i: number) => string,
): Promise<{ located: Map<number, LocatedStop>; pending: PendingPlace[] }> {
  const located = new Map<number, LocatedStop>();
  const pending: PendingPlace[] = [];
  const errors: FieldError[] = [];
  const closest: Record<string, { label: string; location: { lat: number; lng: number }; precision: string }> = {};
  const byKey = new Map<string, LocatedStop>();
  for (const [i, input] of inputs.entries()) {
    if (!isAddressOnly(input)) continue;
    const address = toPlaceAddress(input.address!);
    const key = placeAddressKey(address);
    const pointer = `${pointerOf(i)}/address`;
    if (key === null) {
      errors.push({ pointer, code: 'address_not_found', detail: 'has no street to find' });
      continue;
    }
    const known = byKey.get(key);
    if (known) {
      located.set(i, known);
      if (known.placeId === null) pending.push({ index: i, address, location: known.location });
      continue;
    }
    const place = await findPlaceByAddressKey(q, tenantId, scope.customerId, key);
    let found: LocatedStop | null = null;
    if (place) {
      found = { location: { lat: place.lat, lng: place.lng }, geocoding: { precision: address.number ? 'house' : 'street', source: 'places' }, placeId: place.id };
    } else if (geocode) {
      const answer = await geocode(q, tenantId, address, scope);
      const best = answer.best;
      if (best && FINE_ENOUGH.has(best.precision) && !best.fuzzy) {
        found = { location: best.location, geocoding: { precision: best.precision as 'house' | 'street', source: best.source }, placeId: null };
      } else {
        const near = answer.closest ?? best;
        if (near) closest[pointer] = { label: near.label, location: near.location, precision: near.precision };
      }
    }
    if (!found) {
      const near = closest[pointer];
      errors.push({ pointer, code: 'address_not_found', detail: near ? `was not found; the closest match is ${near.label}` : 'was not found' });
      continue;
    }
    byKey.set(key, found);
    located.set(i, found);
    if (found.placeId === null) pending.push({ index: i, address, location: found.location });
  }
  if (errors.length) {
    throw new AppError(422, 'address_not_found', { key: 'booking.address_not_found' }, errors, Object.keys(closest).length ? { closest } : {});
  }
  return { located, pending };
}

/**
 * Makes (or finds, when a concurrent request made it first) the place of every pending address inside the booking's
 * transaction, and points the booking's stops at it: `place_id` and the automatic group a stop from that place gets.
 */
export async function withNewPlaces(
  tx: Queryable,
  created: NewBooking,
  inputs: StopInputT[],
  pending: PendingPlace[],
): Promise<void> {
  const { tenantId, customerId, serviceAreaId } = created.booking;
  for (const p of pending) {
    const { place } = await findOrCreatePlaceByAddress(tx, { tenantId, customerId, address: p.address, location: p.location, serviceAreaId, now: created.booking.createdAt });
    const stop = created.stops[p.index]!;
    // A concurrent request may have made the place first: the stop stands where the place does.
    Object.assign(stop, { placeId: place.id, lat: place.lat, lng: place.lng });
    stop.group = groupForNewStop(inputs[p.index]!.group, stop.type, place.id, `/booking/stops/${p.index}/group`);
  }
}
