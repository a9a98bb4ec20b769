// Identity wire schemas: tenants, users, credentials.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

export const RoleName = Type.Union([Type.Literal('admin'), Type.Literal('manager'), Type.Literal('driver'), Type.Literal('customer')]);

export const TenantSettings = Type.Object({ enforce_sunsets: Type.Boolean() });

export const Tenant = Type.Object({
  id: Uuid,
  name: Type.String(),
  extensions: Type.Array(Type.String()),
  settings: TenantSettings,
  created_at: Timestamp,
});

export const Extension = Type.Union([Type.Literal('busyness')]);

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

export const User = Type.Object({
  id: Uuid,
  role: RoleName,
  name: Type.String(),
  email: Type.String(),
  phone_number: Nullable(Type.String()),
  organization_ids: Type.Array(Uuid),
  active_tour_id: Type.Optional(Nullable(Uuid)),
  active_hailing_booking_ids: Type.Optional(Type.Array(Uuid)),
  deactivated_at: Nullable(Timestamp),
  created_at: Timestamp,
});
