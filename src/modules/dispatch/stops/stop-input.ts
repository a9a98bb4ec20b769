// Building stop rows from request input: copied from a place (keeping place_id) or from a raw location + address.
import type { Queryable } from '../../../db/client.ts';
import { invalidFields, unknownReference, unprocessable, type FieldError } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { checkContact } from '../../../shared/contact.ts';
import { newId } from '../../../shared/ids.ts';
import { findServiceArea } from '../../identity/index.ts';
import { getPlaces, type PlaceRow } from '../../places/index.ts';
import type { ServiceConfig } from '../../services/index.ts';
import { groupForNewStop } from './grouping.ts';
import type { StopInputT } from '../bookings/index.ts';
import type { StopGeocoding, stops } from '../tables.ts';

export type NewStopRow = typeof stops.$inferInsert;

const DEFAULT_SERVICE_DURATION_SECONDS = 120;

export const messages: Messages = {
  'stop.limit_reached': { en: 'This would exceed the service’s limit of {limit} stops per {scope}.', de: 'Damit würde die Höchstzahl von {limit} Stopps pro {scope} des Service überschritten.' },
};

export const stopLimitReached = (limit: number, scope: 'booking' | 'tour') =>
  unprocessable('stop_limit_reached', { key: 'stop.limit_reached', params: { limit, scope } }, [], { limit });

/**
 * A booking holds at most the service's maxStopsPerBooking stops that are not cancelled: checked by the create's fast
 * path and by a stop added under the booking's lock alike (decision 0218).
 */
export function checkBookingStopLimit(service: Pick<ServiceConfig, 'maxStopsPerBooking'>, liveStops: number): void {
  if (liveStops > service.maxStopsPerBooking) throw stopLimitReached(service.maxStopsPerBooking, 'booking');
}

/** Where an address-only input was found before the write (contract §14): its location, how, and its place. */
export interface LocatedStop {
  location: { lat: number; lng: number };
  geocoding: StopGeocoding;
  placeId: string | null;
}

/** What buildStops is told besides the inputs. */
export interface BuildStopsOptions {
  /** Places the caller read already (every place of `placeIdsOf(inputs)` that exists). */
  knownPlaces?: PlaceRow[];
  /** Address-only inputs located by the geocoder, by index. */
  located?: ReadonlyMap<number, LocatedStop>;
}

const hasNationalPhoneNumber = (inputs: StopInputT[]): boolean =>
  inputs.some((s) => typeof s.contact?.phone_number === 'string' && !/^\s*(\+|00)/.test(s.contact.phone_number) && s.contact.phone_number.trim() !== '');

/**
 * The country a contact's national phone number is read in: the service area's `country_code` (contract §14), read
 * only when some input has a number without "+", so a create without one reads nothing more.
 */
async function phoneCountryOf(q: Queryable, tenantId: string, service: ServiceConfig, inputs: StopInputT[]): Promise<string | null> {
  if (!hasNationalPhoneNumber(inputs)) return null;
  return (await findServiceArea(q, tenantId, service.serviceAreaId))?.countryCode ?? null;
}

/** The places `inputs` are built from, for one batch look-up. */
export const placeIdsOf = (inputs: StopInputT[]): string[] => [...new Set(inputs.map((s) => s.place_id).filter((id): id is string => !!id))];

/**
 * Stop rows for `inputs` (not yet positioned on a booking or tour). `pointerOf(i)` names input i in the body.
 * Places come from one batch look-up, or from `knownPlaces` when the caller read them already; an address-only input
 * comes `located` (the create geocodes before it writes). Every bad field is reported at once; contacts are checked
 * and their phone numbers stored in E.164 (decision 1561).
 */
export async function buildStops(
  q: Queryable,
  tenantId: string,
  service: ServiceConfig,
  inputs: StopInputT[],
  pointerOf: (i: number) => string,
  at: Date,
  options: BuildStopsOptions = {},
): Promise<NewStopRow[]> {
  const { located } = options;
  const places = new Map((options.knownPlaces ?? (await getPlaces(q, tenantId, placeIdsOf(inputs)))).map((p) => [p.id, p]));
  const country = await phoneCountryOf(q, tenantId, service, inputs);
  const errors: FieldError[] = [];
  const contacts = inputs.map((input, i) => {
    if (!input.contact) return undefined;
    const checked = checkContact(input.contact, country, `${pointerOf(i)}/contact`);
    errors.push(...checked.errors);
    return checked.contact;
  });
  inputs.forEach((input, i) => {
    const pointer = pointerOf(i);
    if (input.place_id && !places.has(input.place_id)) throw unknownReference(`${pointer}/place_id`, 'place');
    if (!input.place_id && !input.address) {
      errors.push({ pointer, code: 'required', detail: 'needs place_id, or location and address' });
    } else if (!input.place_id && !input.location && !located?.has(i)) {
      // An address-only stop is geocoded by the booking create (contract §14); the other paths need its location.
      errors.push({ pointer: `${pointer}/location`, code: 'required', detail: 'is required here (only a new booking locates a stop from its address)' });
    }
    if (!service.stopTypes.includes(input.type)) {
      errors.push({ pointer: `${pointer}/type`, code: 'invalid_value', detail: `is not a stop type of the service (${service.stopTypes.join(', ')})` });
    }
    if (input.time_window && Date.parse(input.time_window.ends_at) < Date.parse(input.time_window.starts_at)) {
      errors.push({ pointer: `${pointer}/time_window/ends_at`, code: 'invalid_value', detail: 'is before starts_at' });
    }
  });
  if (errors.length) throw invalidFields(errors);
  return inputs.map((input, i) => {
    const found = input.place_id || input.location ? undefined : located?.get(i);
    const place = input.place_id ? places.get(input.place_id) : undefined;
    const address = input.address ?? place?.address;
    const location = input.location ?? found?.location ?? (place ? { lat: place.lat, lng: place.lng } : undefined);
    const contact = contacts[i];
    if (!address || !location) throw new Error('unreachable: checked above');
    return {
      tenantId,
      id: newId(),
      bookingId: null,
      tourId: null,
      type: input.type,
      status: 'to_be_dispatched' as const,
      position: 0,
      tourPosition: null,
      placeId: place?.id ?? found?.placeId ?? null,
      geocoding: found?.geocoding ?? null,
      lat: location.lat,
      lng: location.lng,
      address: {
        street: address.street,
        number: address.number ?? null,
        zip_code: address.zip_code ?? null,
        city: address.city,
        country: address.country ?? null,
        additional_line: address.additional_line ?? null,
      },
      contact: contact
        ? { name: contact.name ?? null, phone_number: contact.phone_number ?? null, email: contact.email ?? null, locale: contact.locale ?? null }
        : (place?.contact ?? null),
      // A geocoded stop's place is the address's, found or made for it: grouped like a stop built from that place.
      group: groupForNewStop(input.group, input.type, place?.id ?? found?.placeId ?? null, `${pointerOf(i)}/group`),
      timeWindowStartsAt: input.time_window ? new Date(input.time_window.starts_at) : null,
      timeWindowEndsAt: input.time_window ? new Date(input.time_window.ends_at) : null,
      serviceDurationSeconds: input.service_duration_seconds ?? DEFAULT_SERVICE_DURATION_SECONDS,
      notes: input.notes ?? null,
      requiredSkills: input.required_skills?.length ? input.required_skills : null,
      createdAt: at,
      updatedAt: at,
    };
  });
}
