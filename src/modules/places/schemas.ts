// Places wire schemas (docs/api-guide.md "Places").
import { component, StringEnum, withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { deprecatedItem } from '../../http/openapi.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { IdParams, ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

const Text = (maxLength = 200) => Type.String({ minLength: 1, maxLength });
const OptionalText = (maxLength = 200) => Type.Optional(Nullable(Type.String({ maxLength })));

export const Location = Type.Object(
  { lat: Type.Number({ minimum: -90, maximum: 90 }), lng: Type.Number({ minimum: -180, maximum: 180 }) },
  { additionalProperties: false },
);

export const AddressInput = Type.Object(
  {
    street: Text(),
    number: OptionalText(50),
    zip_code: OptionalText(20),
    city: Text(),
    country: OptionalText(100),
    additional_line: OptionalText(),
  },
  { additionalProperties: false },
);

export const ContactInput = Type.Object(
  {
    name: OptionalText(),
    phone_number: OptionalText(50),
    email: OptionalText(320),
    // The language of the recipient's e-mails (docs/tracking.md); English when absent.
    locale: Type.Optional(Nullable(StringEnum(['en', 'de']))),
  },
  { additionalProperties: false },
);

/** Free-form metadata: at most 50 keys and 16 KiB as JSON (decision 0113). */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_BYTES = 16 * 1024;
export const Metadata = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  maxProperties: METADATA_MAX_KEYS,
  maxSerializedBytes: METADATA_MAX_BYTES,
  description: `At most ${METADATA_MAX_KEYS} keys and ${METADATA_MAX_BYTES / 1024} KiB serialized as JSON.`,
});

const placeFields = {
  name: Text(),
  is_hub: Type.Boolean(),
  location: Location,
  address: AddressInput,
  contact: ContactInput,
  service_area_id: Nullable(Uuid),
  customer_id: Nullable(Uuid),
  metadata: Metadata,
};

const PLACE_EXAMPLE = {
  name: 'Moabit depot',
  location: { lat: 52.5303, lng: 13.3295 },
  address: { street: 'Beusselstraße', number: '44', zip_code: '10553', city: 'Berlin', country: 'DE', additional_line: null },
  contact: { name: 'Front desk', phone_number: '+49 30 555 0100', email: null },
  service_area_id: ID.serviceArea,
  customer_id: null,
  metadata: { dock: '4' },
};

export const PlaceCreate = component('PlaceCreate', withExample(Type.Object(
  {
    name: placeFields.name,
    location: placeFields.location,
    address: placeFields.address,
    is_hub: Type.Optional(placeFields.is_hub),
    contact: Type.Optional(placeFields.contact),
    service_area_id: Type.Optional(placeFields.service_area_id),
    customer_id: Type.Optional(placeFields.customer_id),
    metadata: Type.Optional(placeFields.metadata),
  },
  { additionalProperties: false },
), { ...PLACE_EXAMPLE, is_hub: true }));
export type PlaceCreateInput = Static<typeof PlaceCreate>;

export const PlaceUpdate = component('PlaceUpdate', withExample(Type.Partial(Type.Object(placeFields), { additionalProperties: false }), {
  name: 'Moabit depot (north gate)',
  contact: { name: 'Night desk', phone_number: '+49 30 555 0199' },
}));
export type PlaceUpdateInput = Static<typeof PlaceUpdate>;

export const Place = component('Place', withExample(Type.Object({
  id: Uuid,
  name: Type.String(),
  is_hub: Type.Boolean(),
  location: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
  address: Type.Object({
    street: Type.String(),
    number: Nullable(Type.String()),
    zip_code: Nullable(Type.String()),
    city: Type.String(),
    country: Nullable(Type.String()),
    additional_line: Nullable(Type.String()),
  }),
  contact: Type.Object({ name: Nullable(Type.String()), phone_number: Nullable(Type.String()), email: Nullable(Type.String()), locale: Type.Optional(Nullable(Type.String())) }),
  service_area_id: Nullable(Uuid),
  customer_id: Nullable(Uuid),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
}), { id: ID.pickupPlace, ...PLACE_EXAMPLE, is_hub: true, created_at: EXAMPLE_AT }));

const strict = { additionalProperties: false };
export const PlaceCreateBody = Type.Object({ place: PlaceCreate }, strict);
export const PlaceUpdateBody = Type.Object({ place: PlaceUpdate }, strict);
export const MetadataBody = withExample(Type.Object({ metadata: Metadata }, strict), { metadata: { dock: '4', opening_hours: 'Mo-Fr 07:00-19:00' } });
export const PlaceResponse = Type.Object({ place: Place });
export const PlaceList = ListOf('places', Place);
export { IdParams };

export const PlaceListQuery = Type.Object(
  {
    ...PaginationQuery,
    filters: Type.Optional(
      Type.Object(
        { service_area_id: Type.Optional(Uuid), is_hub: Type.Optional(Type.Boolean()), customer_id: Type.Optional(Uuid) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PlaceListFilters = NonNullable<Static<typeof PlaceListQuery>['filters']>;

// GET /api/user/permissions: the caller's permissions, which are the places permission matrix (docs/api-guide.md "Who sees what").
const PlaceActions = component('PlaceActions', Type.Object({
  index: Type.Boolean(),
  show: Type.Boolean(),
  create: Type.Boolean(),
  update: Type.Boolean(),
  destroy: Type.Boolean(),
  fork: Type.Boolean(),
  metadata: Type.Boolean(),
}));
export const PermissionsQuery = Type.Object(
  { view: Type.Optional(StringEnum(['standard', 'detailed'], { default: 'standard' })) },
  strict,
);
export const PermissionsResponse = Type.Object({
  permissions: component('Permissions', withExample(Type.Object({
    places: Type.Union([Type.Boolean(), PlaceActions], { description: 'A boolean; the per-action object with view=detailed.' }),
    admin: Type.Optional(deprecatedItem('admin.places', Type.Object({ places: PlaceActions }))),
  }), { places: true, admin: { places: { index: true, show: true, create: true, update: true, destroy: true, fork: true, metadata: true } } })),
});
