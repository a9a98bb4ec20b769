// Tenant settings wire schemas: the admin's own tenant and the operator's tenant update.
import { Type, type Static } from '@sinclair/typebox';
import { Extension, Tenant } from './schemas.ts';
import { withExample } from '../../http/openapi-components.ts';

const SettingsPatch = Type.Object({ enforce_sunsets: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
const Name = Type.String({ minLength: 1, maxLength: 200 });

/** Admins change the name and settings; extensions are paid features and only the operator changes them. */
export const AdminTenantUpdateBody = withExample(Type.Object(
  { tenant: Type.Object({ name: Type.Optional(Name), settings: Type.Optional(SettingsPatch) }, { additionalProperties: false }) },
  { additionalProperties: false },
), { tenant: { name: 'Spree Kurier GmbH', settings: { enforce_sunsets: true } } });
export type AdminTenantUpdate = Static<typeof AdminTenantUpdateBody>['tenant'];

export const OperatorTenantUpdateBody = withExample(Type.Object(
  {
    tenant: Type.Object(
      {
        name: Type.Optional(Name),
        extensions: Type.Optional(Type.Array(Extension, { uniqueItems: true, maxItems: 10 })),
        settings: Type.Optional(SettingsPatch),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
), { tenant: { extensions: ['busyness'], settings: { enforce_sunsets: true } } });
export type OperatorTenantUpdate = Static<typeof OperatorTenantUpdateBody>['tenant'];

export const TenantResponse = Type.Object({ tenant: Tenant });
