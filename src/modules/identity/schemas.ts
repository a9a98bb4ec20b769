// Identity wire schemas: tenants, users, credentials.
import { component, StringEnum, withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { deprecatedItem } from '../../http/openapi.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

export const RoleName = component('Role', StringEnum(['admin', 'manager', 'driver', 'customer']));

export const TenantSettings = component('TenantSettings', Type.Object({ enforce_sunsets: Type.Boolean() }));

export const Extension = component('Extension', StringEnum(['busyness']));

export const Tenant = component(
  'Tenant',
  withExample(
    Type.Object({
      id: Uuid,
      name: Type.String(),
      extensions: Type.Array(Type.String({ description: 'An extension name: `busyness` today.' })),
      settings: TenantSettings,
      created_at: Timestamp,
    }),
    { id: ID.tenant, name: 'Spree Kurier', extensions: [], settings: { enforce_sunsets: false }, created_at: EXAMPLE_AT },
  ),
);


export const TenantCreateBody = withExample(
  Type.Object(
    {
      tenant: Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 200 }),
          extensions: Type.Optional(Type.Array(Extension, { uniqueItems: true, maxItems: 10 })),
          admin_email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  { tenant: { name: 'Spree Kurier', extensions: ['busyness'], admin_email: 'ops@spree-kurier.example' } },
);
export type TenantCreateInput = Static<typeof TenantCreateBody>['tenant'];

export const TenantCreated = Type.Object({
  tenant: Tenant,
  admin_user_id: withExample(Uuid, ID.admin),
  admin_token: withExample(Type.String(), 'tb_3kX9qLmV2rT8wZ1yB4nC6dF0hJ5sP7aE'),
});

export const User = component('User', withExample(Type.Object({
  id: Uuid,
  role: RoleName,
  name: Type.String(),
  email: Type.String(),
  phone_number: Nullable(Type.String()),
  organization_ids: Type.Array(Uuid),
  active_tour_id: Type.Optional(Nullable(Uuid)),
  active_hailing_booking_ids: Type.Optional(deprecatedItem('active_hailing_booking_ids', Type.Array(Uuid))),
  deactivated_at: Nullable(Timestamp),
  created_at: Timestamp,
}), {
  id: ID.driver,
  role: 'driver',
  name: 'Carla Weber',
  email: 'carla@spree-kurier.example',
  phone_number: '+49 30 1234567',
  organization_ids: [ID.organization],
  active_tour_id: ID.tour,
  deactivated_at: null,
  created_at: EXAMPLE_AT,
}));

// ── Users ────────────────────────────────────────────────────────────────────────────────────────────────────────
const strict = { additionalProperties: false };
const Email = Type.String({ format: 'email', maxLength: 320 });
const Password = Type.String({ minLength: 8, maxLength: 256 });

const userFields = {
  role: RoleName,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Email,
  phone_number: Nullable(Type.String({ minLength: 1, maxLength: 50 })),
  organization_ids: Type.Array(Uuid, { uniqueItems: true, maxItems: 100 }),
  password: Password,
};

export const UserCreate = Type.Object(
  {
    role: userFields.role,
    name: userFields.name,
    email: userFields.email,
    phone_number: Type.Optional(userFields.phone_number),
    organization_ids: Type.Optional(userFields.organization_ids),
    password: Type.Optional(userFields.password),
  },
  strict,
);
export type UserCreateInput = Static<typeof UserCreate>;
export const UserUpdate = Type.Partial(Type.Object(userFields), strict);
export type UserUpdateInput = Static<typeof UserUpdate>;
export const UserCreateBody = withExample(Type.Object({ user: UserCreate }, strict), {
  user: { role: 'driver', name: 'Carla Weber', email: 'carla@spree-kurier.example', phone_number: '+49 30 1234567', organization_ids: [ID.organization], password: 'correct horse battery' },
});
export const UserUpdateBody = withExample(Type.Object({ user: UserUpdate }, strict), { user: { phone_number: '+49 30 7654321' } });
export const UserResponse = Type.Object({ user: User });
export const UserList = ListOf('users', User);

export const UserListQuery = Type.Object(
  {
    ...PaginationQuery,
    filters: Type.Optional(
      Type.Object(
        {
          role: Type.Optional(RoleName),
          organization_id: Type.Optional(Uuid),
          on_active_tour: Type.Optional(Type.Boolean()),
          on_active_hailing_booking: Type.Optional(deprecatedItem('filters.on_active_hailing_booking', Type.Boolean())),
        },
        strict,
      ),
    ),
  },
  strict,
);
export type UserListQueryInput = Static<typeof UserListQuery>;

// ── API keys and sign-in ─────────────────────────────────────────────────────────────────────────────────────────
const API_KEY_EXAMPLE = { id: ID.apiKey, name: 'shop integration', user_id: ID.manager, token_prefix: 'tb_8fQ2', revoked_at: null, created_at: EXAMPLE_AT };
export const ApiKey = component('ApiKey', withExample(Type.Object({
  id: Uuid,
  name: Nullable(Type.String()),
  user_id: Uuid,
  /** The first characters of the token, to recognise it; the token itself is shown once, on creation. */
  token_prefix: Type.String(),
  revoked_at: Nullable(Timestamp),
  created_at: Timestamp,
}), API_KEY_EXAMPLE));
export const ApiKeyCreateBody = withExample(
  Type.Object({ api_key: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), user_id: Uuid }, strict) }, strict),
  { api_key: { name: 'shop integration', user_id: ID.manager } },
);
export const ApiKeyResponse = Type.Object({ api_key: ApiKey });
export const ApiKeyCreated = Type.Object({
  api_key: component('ApiKeyWithToken', withExample(Type.Composite([ApiKey, Type.Object({ token: Type.String() })]), { ...API_KEY_EXAMPLE, token: 'tb_8fQ2mX7kLp0vRt3sYw9zA1bC4dE6gH5j' })),
});
export const ApiKeyList = ListOf('api_keys', ApiKey);

export const SignInBody = withExample(
  Type.Object(
    {
      user: Type.Object(
        {
          email: Type.String({ minLength: 1, maxLength: 320 }),
          password: Type.String({ minLength: 1, maxLength: 256 }),
          tenant_id: Type.Optional(Type.String({ format: 'uuid', description: 'Needed only when the e-mail and password match users of several tenants.' })),
        },
        strict,
      ),
    },
    strict,
  ),
  { user: { email: 'carla@spree-kurier.example', password: 'correct horse battery' } },
);
export const RefreshTokenBody = withExample(Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) }, strict), {
  refresh_token: 'tbr_Qm4nZ8xK2pL7vB1cT5wR9yH3jD6fG0sA',
});
export const TokenResponse = component('TokenPair', withExample(Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires.' }),
  token_type: Type.Literal('bearer'),
}), { access_token: 'tba_Vb7cN2mQ9xL4kP1zR8tW3yF6hJ0dS5gE', refresh_token: 'tbr_Qm4nZ8xK2pL7vB1cT5wR9yH3jD6fG0sA', expires_in: 3600, token_type: 'bearer' }));

/** The `Set-Cookie` header of the browser-session routes, as the OpenAPI document shows it (decision 0140). */
const setCookie = (description: string) => ({ headers: { 'Set-Cookie': { type: 'string', description } } });

export const SessionResponse = Type.Object(
  {
    session: component('BrowserSession', withExample(Type.Object({ expires_at: Timestamp }), { expires_at: '2026-12-22T13:00:00.000Z' })),
    user: User,
  },
  setCookie('`tourbook_session=tbs_…; Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict`, with `Secure` over HTTPS. The token is never in the body. Beside it the device cookie `tourbook_device=…; Max-Age=15552000; Path=/api/s; HttpOnly; SameSite=Strict`: this browser signed in before, so failed sign-ins elsewhere do not slow it (decision 1621).'),
);
export const SessionEnded = Type.Null(setCookie('`tourbook_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`: the browser drops the cookie.'));

// ── Organizations and service areas ──────────────────────────────────────────────────────────────────────────────
export const Organization = component('Organization', withExample(
  Type.Object({ id: Uuid, name: Type.String(), service_area_ids: Type.Array(Uuid), created_at: Timestamp }),
  { id: ID.organization, name: 'Havel Logistik', service_area_ids: [ID.serviceArea], created_at: EXAMPLE_AT },
));
const organizationFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  service_area_ids: Type.Array(Uuid, { uniqueItems: true, maxItems: 100 }),
};
export const OrganizationCreateBody = withExample(
  Type.Object(
    { organization: Type.Object({ name: organizationFields.name, service_area_ids: Type.Optional(organizationFields.service_area_ids) }, strict) },
    strict,
  ),
  { organization: { name: 'Havel Logistik', service_area_ids: [ID.serviceArea] } },
);
export const OrganizationUpdateBody = withExample(Type.Object({ organization: Type.Partial(Type.Object(organizationFields), strict) }, strict), {
  organization: { name: 'Havel Logistik GmbH' },
});
export type OrganizationCreateInput = Static<typeof OrganizationCreateBody>['organization'];
export type OrganizationUpdateInput = Static<typeof OrganizationUpdateBody>['organization'];
export const OrganizationResponse = Type.Object({ organization: Organization });
export const OrganizationList = ListOf('organizations', Organization);

const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 3 });
/** GeoJSON Polygon (RFC 7946 §3.1.6): linear rings of ≥ 4 positions; closure and ranges are checked in the operation. */
export const Polygon = Type.Object(
  { type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Position, { minItems: 4, maxItems: 10_000 }), { minItems: 1, maxItems: 100 }) },
  strict,
);
export type PolygonInput = Static<typeof Polygon>;

/**
 * When a booking's recipient is e-mailed (docs/tracking.md): on a tour, the driver heading to the drop-off next, its
 * ETA within `recipient_approaching_minutes`, delivered, failed (decisions 1104, 1108).
 */
const RECIPIENT_MOMENTS = ['dispatched', 'on_its_way', 'approaching', 'delivered', 'failed'] as const;
const RecipientMoment = StringEnum(RECIPIENT_MOMENTS);
/** A wall-clock time, "HH:MM" from 00:00 to 23:59. */
const LocalTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Local time, HH:MM.' });
/** Bounds of `recipient_approaching_minutes` (decision 1108). */
export const RECIPIENT_APPROACHING_MINUTES = { min: 1, max: 120, default: 10 } as const;

const BERLIN: PolygonInput = { type: 'Polygon', coordinates: [[[13.08, 52.33], [13.76, 52.33], [13.76, 52.68], [13.08, 52.68], [13.08, 52.33]]] };
export const ServiceArea = component('ServiceArea', withExample(Type.Object({
  id: Uuid,
  name: Type.String(),
  currency: Type.String(),
  time_zone: Type.String(),
  boundary: Nullable(Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Type.Array(Type.Number()))) })),
  scheduling_config_id: Nullable(Uuid),
  average_speed_kmh: Type.Integer(),
  /** Auto-dispatch of new bookings into open tours (decision 1350); off by default. */
  auto_dispatch: Type.Object({ enabled: Type.Boolean(), budget_ms: Type.Integer() }),
  created_at: Timestamp,
  recipient_notifications: Type.Array(RecipientMoment),
  recipient_approaching_minutes: Type.Integer(),
  country_code: Nullable(Type.String()),
  sms_quiet_hours: Nullable(Type.Object({ from: Type.String(), to: Type.String() })),
  recipient_reschedule_days: Type.Integer(),
}), {
  id: ID.serviceArea,
  name: 'Berlin',
  currency: 'EUR',
  time_zone: 'Europe/Berlin',
  boundary: BERLIN,
  scheduling_config_id: ID.schedulingConfig,
  average_speed_kmh: 25,
  auto_dispatch: { enabled: false, budget_ms: 200 },
  created_at: EXAMPLE_AT,
  recipient_notifications: ['dispatched', 'approaching', 'delivered', 'failed'],
  recipient_approaching_minutes: 10,
  country_code: 'DE',
  sms_quiet_hours: { from: '21:00', to: '07:00' },
  recipient_reschedule_days: 3,
}));
/** The most days a recipient may move its delivery (decision 1788): two weeks, as a parcel shop keeps a parcel. */
export const RECIPIENT_RESCHEDULE_DAYS_MAX = 14;
/** Bounds of an auto-dispatch decision's search budget, in milliseconds (decision 1350). */
export const AUTO_DISPATCH_BUDGET_MS = { min: 10, max: 2000, default: 200 } as const;
const serviceAreaFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO-4217 code, e.g. EUR.' }),
  time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin.' }),
  boundary: Nullable(Polygon),
  scheduling_config_id: Nullable(Uuid),
  average_speed_kmh: Type.Integer({ minimum: 1, maximum: 200 }),
  auto_dispatch: Type.Object(
    {
      enabled: Type.Optional(Type.Boolean()),
      budget_ms: Type.Optional(Type.Integer({ minimum: AUTO_DISPATCH_BUDGET_MS.min, maximum: AUTO_DISPATCH_BUDGET_MS.max, description: 'How long one decision may search (decision 1350).' })),
    },
    strict,
  ),
  recipient_notifications: Type.Array(RecipientMoment, { uniqueItems: true, maxItems: RECIPIENT_MOMENTS.length }),
  recipient_approaching_minutes: Type.Integer({
    minimum: RECIPIENT_APPROACHING_MINUTES.min,
    maximum: RECIPIENT_APPROACHING_MINUTES.max,
    description: 'The `approaching` moment: the ETA is at most this many minutes away (decision 1108).',
  }),
  country_code: Nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, e.g. MC: phone numbers written without "+" are read in this country (contract §14).' })),
  sms_quiet_hours: Nullable(
    Type.Object(
      { from: LocalTime, to: LocalTime },
      { ...strict, description: "SMS quiet hours on the area's clock (contract §18, decision 1772): an SMS due inside them waits until `to`. May span midnight; `from` and `to` differ." },
    ),
  ),
  recipient_reschedule_days: Type.Integer({
    minimum: 0,
    maximum: RECIPIENT_RESCHEDULE_DAYS_MAX,
    description: "How many days later the recipient may move its delivery through the tracking link (decision 1788); 0 (the default): not at all.",
  }),
};
const ServiceAreaFields = Type.Object(serviceAreaFields);
const SERVICE_AREA_REQUIRED = ['name', 'currency', 'time_zone'] as const;
export const ServiceAreaCreateBody = withExample(
  Type.Object(
    {
      service_area: Type.Composite([Type.Pick(ServiceAreaFields, SERVICE_AREA_REQUIRED), Type.Partial(Type.Omit(ServiceAreaFields, SERVICE_AREA_REQUIRED))], strict),
    },
    strict,
  ),
  { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin', boundary: BERLIN, average_speed_kmh: 25, country_code: 'DE' } },
);
export const ServiceAreaUpdateBody = withExample(Type.Object({ service_area: Type.Partial(ServiceAreaFields, strict) }, strict), {
  service_area: { scheduling_config_id: ID.schedulingConfig, average_speed_kmh: 22 },
});
export type ServiceAreaCreateInput = Static<typeof ServiceAreaCreateBody>['service_area'];
export type ServiceAreaUpdateInput = Static<typeof ServiceAreaUpdateBody>['service_area'];
export const ServiceAreaResponse = Type.Object({ service_area: ServiceArea });
export const ServiceAreaList = ListOf('service_areas', ServiceArea);

export const ListQuery = Type.Object({ ...PaginationQuery }, strict);
