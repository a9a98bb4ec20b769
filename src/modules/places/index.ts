// What other modules may use of places: batch look-up (bookings build stops from places, also as part of a combined
// read) and the permission matrix.
export { findPlaces as getPlaces, placesRead, type PlaceRow } from './repository.ts';
export type { PlaceAddress, PlaceContact } from './tables.ts';
/** Wire schemas a stop shares with a place (a stop is built from a place, or from the same fields). */
export { AddressInput, ContactInput, Location, Metadata } from './schemas.ts';
export { placePermissions, PLACE_ACTIONS, type PlaceAction, type PlacePermissions } from './permissions.ts';

/** Ids of the places in a service area (busyness events go out per place). */
export { placeIdsInServiceArea } from './repository.ts';

/**
 * Address-only stops (contract §14): the tenant's place for a normalized address in a customer scope, created when
 * there is none; concurrent calls for one address return one place (ON CONFLICT on places_address_key_idx).
 * `findOrCreatePlaceByAddress(tx, { tenantId, customerId, address, location, name?, serviceAreaId?, contact?, now })`
 * → `{ place: PlaceRow, created: boolean }`.
 */
export { findOrCreatePlaceByAddress, placeAddressKey, type PlaceByAddressInput } from './address-key.ts';
export { messages } from './address-key.ts';
