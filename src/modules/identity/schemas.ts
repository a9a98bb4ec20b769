// Identity wire schemas: tenants, users, credentials.
import { component, StringEnum } from '../../http/openapi-components.ts';
import { deprecatedItem } from '../../http/openapi.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

export const RoleName = component('Role', StringEnum(['admin', 'manager', 'driver', 'customer']));

export const TenantSettings = component('TenantSettings', Type.Object({ enforce_sunsets: Type.Boolean() }));

export const Extension = component('Extension', StringEnum(['busyness']));

export const Tenant = component(
  'Tenant',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    extensions: Type.Array(Type.String({ description: 'An extension name: `busyness` today.' })),
    settings: TenantSettings,
    created_at: Timestamp,
  }),
);


export const TenantCreateBody = Type.Object(
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
);
export type TenantCreateInput = Static<typeof TenantCreateBody>['tenant'];

export const TenantCreated = Type.Object({ tenant: Tenant, admin_user_id: Uuid, admin_token: Type.String() });

export const User = component('User', Type.Object({
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
export const UserCreateBody = Type.Object({ user: UserCreate }, strict);
export const UserUpdateBody = Type.Object({ user: UserUpdate }, strict);
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
export const ApiKey = component('ApiKey', Type.Object({
  id: Uuid,
  name: Nullable(Type.String()),
  user_id: Uuid,
  /** The first characters of the token, to recognise it; the token itself is shown once, on creation. */
  token_prefix: Type.String(),
  revoked_at: Nullable(Timestamp),
  created_at: Timestamp,
}));
export const ApiKeyCreateBody = Type.Object(
  { api_key: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), user_id: Uuid }, strict) },
  strict,
);
export const ApiKeyResponse = Type.Object({ api_key: ApiKey });
export const ApiKeyCreated = Type.Object({ api_key: component('ApiKeyWithToken', Type.Composite([ApiKey, Type.Object({ token: Type.String() })])) });
export const ApiKeyList = ListOf('api_keys', ApiKey);

export const SignInBody = Type.Object(
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
);
export const RefreshTokenBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) }, strict);
export const TokenResponse = component('TokenPair', Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires.' }),
  token_type: Type.Literal('bearer'),
}));

/** The `Set-Cookie` header of the browser-session routes, as the OpenAPI document shows it (decision 0140). */
const setCookie = (description: string) => ({ headers: { 'Set-Cookie': { type: 'string', description } } });

export const SessionResponse = Type.Object(
  {
    session: component('BrowserSession', Type.Object({ expires_at: Timestamp })),
    user: User,
  },
  setCookie('`tourbook_session=tbs_…; Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict`, with `Secure` over HTTPS. The token is never in the body.'),
);
export const SessionEnded = Type.Null(setCookie('`tourbook_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`: the browser drops the cookie.'));

// ── Organizations and service areas ──────────────────────────────────────────────────────────────────────────────
export const Organization = component('Organization', Type.Object({ id: Uuid, name: Type.String(), service_area_ids: Type.Array(Uuid), created_at: Timestamp }));
const organizationFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  service_area_ids: Type.Array(Uuid, { uniqueItems: true, maxItems: 100 }),
};
export const OrganizationCreateBody = Type.Object(
  { organization: Type.Object({ name: organizationFields.name, service_area_ids: Type.Optional(organizationFields.service_area_ids) }, strict) },
  strict,
);
export const OrganizationUpdateBody = Type.Object({ organization: Type.Partial(Type.Object(organizationFields), strict) }, strict);
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

export const ServiceArea = component('ServiceArea', Type.Object({
  id: Uuid,
  name: Type.String(),
  currency: Type.String(),
  time_zone: Type.String(),
  boundary: Nullable(Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Type.Array(Type.Number()))) })),
  scheduling_config_id: Nullable(Uuid),
  average_speed_kmh: Type.Integer(),
  created_at: Timestamp,
}));
const serviceAreaFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO-4217 code, e.g. EUR.' }),
  time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin.' }),
  boundary: Nullable(Polygon),
  scheduling_config_id: Nullable(Uuid),
  average_speed_kmh: Type.Integer({ minimum: 1, maximum: 200 }),
};
const ServiceAreaFields = Type.Object(serviceAreaFields);
const SERVICE_AREA_REQUIRED = ['name', 'currency', 'time_zone'] as const;
export const ServiceAreaCreateBody = Type.Object(
  {
    service_area: Type.Composite([Type.Pick(ServiceAreaFields, SERVICE_AREA_REQUIRED), Type.Partial(Type.Omit(ServiceAreaFields, SERVICE_AREA_REQUIRED))], strict),
  },
  strict,
);
export const ServiceAreaUpdateBody = Type.Object({ service_area: Type.Partial(ServiceAreaFields, strict) }, strict);
export type ServiceAreaCreateInput = Static<typeof ServiceAreaCreateBody>['service_area'];
export type ServiceAreaUpdateInput = Static<typeof ServiceAreaUpdateBody>['service_area'];
export const ServiceAreaResponse = Type.Object({ service_area: ServiceArea });
export const ServiceAreaList = ListOf('service_areas', ServiceArea);

export const ListQuery = Type.Object({ ...PaginationQuery }, strict);
