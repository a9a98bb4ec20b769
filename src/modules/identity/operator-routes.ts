// Operator routes: tenant creation over HTTP, authenticated by OPERATOR_TOKEN (disabled when unset) in app.ts's onRequest hook.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { tokenFromRequest } from '../../http/auth.ts';
import { AppError, unauthenticated } from '../../http/errors.ts';
import { createTenant } from './operations/create-tenant.ts';
import { TenantCreateBody, TenantCreated } from './schemas.ts';

/** OPERATOR_TOKEN check shared by every operator route (404 while the operator API is disabled). */
export function checkOperator(deps: Deps, request: FastifyRequest): void {
  const expected = deps.config.operatorToken;
  if (!expected) throw new AppError(404, 'not_found', 'The operator API is disabled: set OPERATOR_TOKEN to enable it.');
  const given = tokenFromRequest(request);
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw unauthenticated();
}

export const operatorRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/operator/tenants',
      {
        config: { auth: 'operator' },
        schema: { tags: ['operator'], operationId: 'operatorCreateTenant', summary: 'Create a tenant with its first admin', body: TenantCreateBody, response: { 201: TenantCreated } },
      },
      async (request, reply) => reply.status(201).send(await createTenant(deps, request.body.tenant)),
    );
  };
