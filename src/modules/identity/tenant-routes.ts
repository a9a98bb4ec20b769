// Tenant settings routes: GET/PATCH /api/admin/tenant (admins) and PATCH /api/operator/tenants/{id} (OPERATOR_TOKEN).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/actor.ts';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { getOwnTenant, updateOwnTenant, updateTenantAsOperator } from './operations/manage-tenant.ts';
import { AdminTenantUpdateBody, OperatorTenantUpdateBody, TenantResponse } from './tenant-schemas.ts';

export const tenantRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/admin/tenant',
      { schema: { tags: ['tenant'], operationId: 'getTenant', summary: "The caller's tenant with its settings", response: { 200: TenantResponse } } },
      async (request) => ({ tenant: await getOwnTenant(deps, actorOf(request)) }),
    );

    app.patch(
      '/api/admin/tenant',
      {
        schema: {
          tags: ['tenant'],
          operationId: 'updateTenant', summary: "Change the caller's tenant name or settings (enforce_sunsets)",
          body: AdminTenantUpdateBody,
          response: { 200: TenantResponse },
        },
      },
      async (request) => ({ tenant: await updateOwnTenant(deps, actorOf(request), request.body.tenant) }),
    );

    app.patch(
      '/api/operator/tenants/:id',
      {
        config: { auth: 'operator' },
        schema: {
          tags: ['operator'],
          operationId: 'operatorUpdateTenant', summary: "Change a tenant's name, extensions or settings",
          params: IdParams,
          body: OperatorTenantUpdateBody,
          response: { 200: TenantResponse },
        },
      },
      async (request) => ({ tenant: await updateTenantAsOperator(deps, request.params.id, request.body.tenant) }),
    );
  };
