// Places routes: CRUD, fork and metadata (docs/api-guide.md "Places"), and the caller's permissions (the places matrix).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../http/actor.ts';
import type { Deps } from '../../deps.ts';
import { setNextLink } from '../../http/pagination.ts';
import { bodyOptional, EmptyBody } from '../../http/schemas.ts';
import { markDeprecated } from '../../compat/http.ts';
import { getPermissions } from './caller-permissions.ts';
import { createPlace, deletePlace, forkPlace, getPlace, listPlaces, replacePlaceMetadata, updatePlace } from './operations.ts';
import { IdParams, MetadataBody, PermissionsQuery, PermissionsResponse, PlaceCreateBody, PlaceList, PlaceListQuery, PlaceResponse, PlaceUpdateBody } from './schemas.ts';

const tags = ['places'];

export const placeRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/api/places', { schema: { tags, operationId: 'listPlaces', summary: 'List places', querystring: PlaceListQuery, response: { 200: PlaceList } } }, async (request, reply) => {
      const page = await listPlaces(deps, actorOf(request), request.query);
      setNextLink(request, reply, page.meta.next_cursor);
      return { places: page.items, meta: page.meta };
    });

    app.post('/api/places', { schema: { tags, operationId: 'createPlace', summary: 'Create a place', body: PlaceCreateBody, response: { 201: PlaceResponse } } }, async (request, reply) =>
      reply.status(201).send({ place: await createPlace(deps, actorOf(request), request.body.place) }),
    );

    app.get('/api/places/:id', { schema: { tags, operationId: 'getPlace', summary: 'Show a place', params: IdParams, response: { 200: PlaceResponse } } }, async (request) => ({
      place: await getPlace(deps, actorOf(request), request.params.id),
    }));

    app.patch(
      '/api/places/:id',
      { schema: { tags, operationId: 'updatePlace', summary: 'Update a place (only the given fields)', params: IdParams, body: PlaceUpdateBody, response: { 200: PlaceResponse } } },
      async (request) => ({ place: await updatePlace(deps, actorOf(request), request.params.id, request.body.place) }),
    );

    app.delete('/api/places/:id', { schema: { tags, operationId: 'deletePlace', summary: 'Delete a place', params: IdParams, response: { 204: Type.Null() } } }, async (request, reply) => {
      await deletePlace(deps, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    });

    app.post('/api/places/:id/fork', { schema: { tags, operationId: 'forkPlace', summary: 'Copy a place as a new place', params: IdParams, body: EmptyBody, response: { 201: PlaceResponse } }, preValidation: bodyOptional }, async (request, reply) =>
      reply.status(201).send({ place: await forkPlace(deps, actorOf(request), request.params.id) }),
    );

    app.put(
      '/api/places/:id/metadata',
      { schema: { tags, operationId: 'replacePlaceMetadata', summary: "Replace a place's metadata", params: IdParams, body: MetadataBody, response: { 200: PlaceResponse } } },
      async (request) => ({ place: await replacePlaceMetadata(deps, actorOf(request), request.params.id, request.body.metadata) }),
    );

    app.get(
      '/api/user/permissions',
      { schema: { tags: ['identity'], operationId: 'getCurrentUserPermissions', summary: "The caller's permissions", querystring: PermissionsQuery, response: { 200: PermissionsResponse } } },
      async (request, reply) => {
        const { permissions, servesDeprecated } = getPermissions(deps, actorOf(request), request.query.view ?? 'standard');
        if (servesDeprecated) markDeprecated(reply, 'admin.places');
        return { permissions };
      },
    );
  };
