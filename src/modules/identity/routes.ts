// Identity routes: the caller, users, API keys, organizations, service areas, tenant settings.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { getCurrentUser } from './operations.ts';
import { User } from './schemas.ts';

export const identityRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/user',
      { schema: { tags: ['identity'], summary: 'The calling user', response: { 200: Type.Object({ user: User }) } } },
      async (request) => ({ user: await getCurrentUser(deps, actorOf(request)) }),
    );
  };
