// Identity routes: the caller and its permissions, users, API keys, sign-in, organizations, service areas.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { markDeprecated } from '../../compat/http.ts';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { clearSessionCookie, crossSiteRequest, deviceTokenOf, isCrossSiteSignIn, isSameOriginWrite, sessionTokenOf, setDeviceCookie, setSessionCookie } from '../../http/session-cookie.ts';
import { setNextLink } from '../../http/pagination.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './operations/manage-api-keys.ts';
import { refreshTokens, signIn } from './operations/sign-in.ts';
import { endSession, SESSION_SECONDS, startSession } from './operations/browser-sessions.ts';
import { DEVICE_COOKIE_SECONDS } from './operations/sign-in-throttle.ts';
import {
  createOrganization,
  createServiceArea,
  getOrganization,
  getServiceArea,
  listOrganizations,
  listServiceAreas,
  updateOrganization,
  updateServiceArea,
} from './operations/manage-organizations.ts';
import {
  ApiKeyCreateBody,
  ApiKeyCreated,
  ApiKeyList,
  ApiKeyResponse,
  ListQuery,
  OrganizationCreateBody,
  OrganizationList,
  OrganizationResponse,
  OrganizationUpdateBody,
  RefreshTokenBody,
  SessionEnded,
  SessionResponse,
  ServiceAreaCreateBody,
  ServiceAreaList,
  ServiceAreaResponse,
  ServiceAreaUpdateBody,
  SignInBody,
  TokenResponse,
  User,
  UserCreateBody,
  UserList,
  UserListQuery,
  UserResponse,
  UserUpdateBody,
} from './schemas.ts';
import { createUser, deactivateUser, getCurrentUser, getUser, listUsers, updateUser } from './operations/manage-users.ts';

/** Drivers render the deprecated `active_hailing_booking_ids`: a response that carries it says so (Deprecation, Link). */
function rendered<T extends { active_hailing_booking_ids?: unknown }>(reply: FastifyReply, users: T[]): T[] {
  if (users.some((user) => user.active_hailing_booking_ids !== undefined)) markDeprecated(reply, 'active_hailing_booking_ids');
  return users;
}
const renderedOne = <T extends { active_hailing_booking_ids?: unknown }>(reply: FastifyReply, user: T): T => rendered(reply, [user])[0] as T;

export const identityRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/user',
      { schema: { tags: ['identity'], operationId: 'getCurrentUser', summary: 'The calling user', response: { 200: Type.Object({ user: User }) } } },
      async (request, reply) => ({ user: renderedOne(reply, await getCurrentUser(deps, actorOf(request))) }),
    );

    // ── Users ──
    const users = ['users'];
    app.get('/api/users', { schema: { tags: users, operationId: 'listUsers', summary: 'List users', querystring: UserListQuery, response: { 200: UserList } } }, async (request, reply) => {
      const page = await listUsers(deps, actorOf(request), request.query);
      if (page.usedDeprecatedAlias) markDeprecated(reply, 'filters.on_active_hailing_booking');
      setNextLink(request, reply, page.meta.next_cursor);
      return { users: rendered(reply, page.items), meta: page.meta };
    });

    app.post('/api/users', { schema: { tags: users, operationId: 'createUser', summary: 'Create a user', body: UserCreateBody, response: { 201: UserResponse } } }, async (request, reply) =>
      reply.status(201).send({ user: renderedOne(reply, await createUser(deps, actorOf(request), request.body.user)) }),
    );

    app.get('/api/users/:id', { schema: { tags: users, operationId: 'getUser', summary: 'Show a user', params: IdParams, response: { 200: UserResponse } } }, async (request, reply) => ({
      user: renderedOne(reply, await getUser(deps, actorOf(request), request.params.id)),
    }));

    app.patch(
      '/api/users/:id',
      { schema: { tags: users, operationId: 'updateUser', summary: 'Update a user (only the given fields)', params: IdParams, body: UserUpdateBody, response: { 200: UserResponse } } },
      async (request, reply) => ({ user: renderedOne(reply, await updateUser(deps, actorOf(request), request.params.id, request.body.user)) }),
    );

    app.delete(
      '/api/users/:id',
      { schema: { tags: users, operationId: 'deactivateUser', summary: 'Deactivate a user (its credentials stop working at once)', params: IdParams, response: { 200: UserResponse } } },
      async (request, reply) => ({ user: renderedOne(reply, await deactivateUser(deps, actorOf(request), request.params.id)) }),
    );

    // ── Credentials ──
    const auth = ['authentication'];
    app.get('/api/admin/api_keys', { schema: { tags: auth, operationId: 'listApiKeys', summary: 'List API keys', querystring: ListQuery, response: { 200: ApiKeyList } } }, async (request, reply) => {
      const page = await listApiKeys(deps, actorOf(request), request.query);
      setNextLink(request, reply, page.meta.next_cursor);
      return { api_keys: page.items, meta: page.meta };
    });

    app.post(
      '/api/admin/api_keys',
      { schema: { tags: auth, operationId: 'createApiKey', summary: 'Create an API key (the token is shown once)', body: ApiKeyCreateBody, response: { 201: ApiKeyCreated } } },
      async (request, reply) => reply.status(201).send({ api_key: await createApiKey(deps, actorOf(request), request.body.api_key) }),
    );

    app.delete(
      '/api/admin/api_keys/:id',
      { schema: { tags: auth, operationId: 'revokeApiKey', summary: 'Revoke an API key', params: IdParams, response: { 200: ApiKeyResponse } } },
      async (request) => ({ api_key: await revokeApiKey(deps, actorOf(request), request.params.id) }),
    );

    app.post(
      '/api/signin',
      { config: { auth: 'public' }, schema: { tags: auth, operationId: 'signIn', summary: 'Sign in with e-mail and password', security: [], body: SignInBody, response: { 200: TokenResponse } } },
      async (request) => signIn(deps, request.body.user, { address: request.ip, deviceToken: deviceTokenOf(request) }),
    );

    app.post(
      '/api/refresh_token',
      { config: { auth: 'public' }, schema: { tags: auth, operationId: 'refreshToken', summary: 'Exchange a refresh token for a new token pair', security: [], body: RefreshTokenBody, response: { 200: TokenResponse } } },
      async (request) => refreshTokens(deps, request.body.refresh_token),
    );

    // Browser sessions (decision 0140): the cookie is set and cleared here; the operations never see HTTP.
    app.post(
      '/api/session',
      {
        config: { auth: 'public' },
        onRequest: async (request) => {
          if (isCrossSiteSignIn(request, deps.config)) throw crossSiteRequest();
        },
        schema: { tags: auth, operationId: 'startSession', summary: 'Sign in a browser: a session cookie instead of tokens', security: [], body: SignInBody, response: { 200: SessionResponse } },
      },
      async (request, reply) => {
        const started = await startSession(deps, request.body.user, { address: request.ip, deviceToken: deviceTokenOf(request) });
        setSessionCookie(reply, request, deps.config, started.token, SESSION_SECONDS);
        setDeviceCookie(reply, request, deps.config, started.deviceToken, DEVICE_COOKIE_SECONDS);
        return { session: started.session, user: renderedOne(reply, started.user) };
      },
    );

    app.delete(
      '/api/session',
      {
        config: { auth: 'public' },
        // Sign-out uses the cookie like any write: only a page of our own may end the session.
        onRequest: async (request) => {
          if (sessionTokenOf(request) !== null && !isSameOriginWrite(request, deps.config)) throw crossSiteRequest();
        },
        schema: { tags: auth, operationId: 'endSession', summary: 'Sign a browser out: revoke its session and clear the cookie', security: [], response: { 204: SessionEnded } },
      },
      async (request, reply) => {
        await endSession(deps, sessionTokenOf(request));
        clearSessionCookie(reply, request, deps.config);
        return reply.status(204).send(null);
      },
    );

    // ── Organizations and service areas ──
    const orgs = ['organizations'];
    app.get('/api/organizations', { schema: { tags: orgs, operationId: 'listOrganizations', summary: 'List organizations', querystring: ListQuery, response: { 200: OrganizationList } } }, async (request, reply) => {
      const page = await listOrganizations(deps, actorOf(request), request.query);
      setNextLink(request, reply, page.meta.next_cursor);
      return { organizations: page.items, meta: page.meta };
    });

    app.post(
      '/api/organizations',
      { schema: { tags: orgs, operationId: 'createOrganization', summary: 'Create an organization', body: OrganizationCreateBody, response: { 201: OrganizationResponse } } },
      async (request, reply) => reply.status(201).send({ organization: await createOrganization(deps, actorOf(request), request.body.organization) }),
    );

    app.get(
      '/api/organizations/:id',
      { schema: { tags: orgs, operationId: 'getOrganization', summary: 'Show an organization', params: IdParams, response: { 200: OrganizationResponse } } },
      async (request) => ({ organization: await getOrganization(deps, actorOf(request), request.params.id) }),
    );

    app.patch(
      '/api/organizations/:id',
      { schema: { tags: orgs, operationId: 'updateOrganization', summary: 'Update an organization (only the given fields)', params: IdParams, body: OrganizationUpdateBody, response: { 200: OrganizationResponse } } },
      async (request) => ({ organization: await updateOrganization(deps, actorOf(request), request.params.id, request.body.organization) }),
    );

    const areas = ['service areas'];
    app.get(
      '/api/admin/service_areas',
      { schema: { tags: areas, operationId: 'listServiceAreas', summary: 'List service areas', querystring: ListQuery, response: { 200: ServiceAreaList } } },
      async (request, reply) => {
        const page = await listServiceAreas(deps, actorOf(request), request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return { service_areas: page.items, meta: page.meta };
      },
    );

    app.post(
      '/api/admin/service_areas',
      { schema: { tags: areas, operationId: 'createServiceArea', summary: 'Create a service area', body: ServiceAreaCreateBody, response: { 201: ServiceAreaResponse } } },
      async (request, reply) => reply.status(201).send({ service_area: await createServiceArea(deps, actorOf(request), request.body.service_area) }),
    );

    app.get(
      '/api/admin/service_areas/:id',
      { schema: { tags: areas, operationId: 'getServiceArea', summary: 'Show a service area', params: IdParams, response: { 200: ServiceAreaResponse } } },
      async (request) => ({ service_area: await getServiceArea(deps, actorOf(request), request.params.id) }),
    );

    app.patch(
      '/api/admin/service_areas/:id',
      { schema: { tags: areas, operationId: 'updateServiceArea', summary: 'Update a service area (only the given fields)', params: IdParams, body: ServiceAreaUpdateBody, response: { 200: ServiceAreaResponse } } },
      async (request) => ({ service_area: await updateServiceArea(deps, actorOf(request), request.params.id, request.body.service_area) }),
    );
  };
