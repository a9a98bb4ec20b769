// Shifts routes (docs/api-guide.md "Optimising tours and planning dispatch"): a driver's shifts, and one shift by id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { actorOf } from '../../http/actor.ts';
import { setNextLink } from '../../http/pagination.ts';
import { createShift, deleteShift, getShift, listShifts, updateShift } from './operations.ts';
import { IdParams, ShiftCreateBody, ShiftList, ShiftListQuery, ShiftResponse, ShiftUpdateBody } from './schemas.ts';

const tags = ['shifts'];

export const shiftRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/drivers/:id/shifts',
      { schema: { tags, operationId: 'createShift', summary: 'Add a shift to a driver', params: IdParams, body: ShiftCreateBody, response: { 201: ShiftResponse } } },
      async (request, reply) => reply.status(201).send({ shift: await createShift(deps, actorOf(request), request.params.id, request.body.shift) }),
    );
    app.get(
      '/api/drivers/:id/shifts',
      { schema: { tags, operationId: 'listShifts', summary: "A driver's shifts, earliest first", params: IdParams, querystring: ShiftListQuery, response: { 200: ShiftList } } },
      async (request, reply) => {
        const page = await listShifts(deps, actorOf(request), request.params.id, request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return { shifts: page.items, meta: page.meta };
      },
    );
    app.get('/api/shifts/:id', { schema: { tags, operationId: 'getShift', summary: 'Show a shift', params: IdParams, response: { 200: ShiftResponse } } }, async (request) => ({
      shift: await getShift(deps, actorOf(request), request.params.id),
    }));
    app.patch(
      '/api/shifts/:id',
      { schema: { tags, operationId: 'updateShift', summary: 'Update a shift (only the given fields)', params: IdParams, body: ShiftUpdateBody, response: { 200: ShiftResponse } } },
      async (request) => ({ shift: await updateShift(deps, actorOf(request), request.params.id, request.body.shift) }),
    );
    app.delete('/api/shifts/:id', { schema: { tags, operationId: 'deleteShift', summary: 'Delete a shift', params: IdParams, response: { 204: Type.Null() } } }, async (request, reply) => {
      await deleteShift(deps, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    });
  };
