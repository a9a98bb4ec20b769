// Stops routes: reading a stop, its properties, and the driver's steps (approach, arrive, complete).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../http/actor.ts';
import type { Deps } from '../../../deps.ts';
import { bodyOptional, EmptyBody, IdParams } from '../../../http/schemas.ts';
import { PROOF_BODY_LIMIT, StopCompleteBody, StopEnvelope, StopPropertiesBody } from '../bookings/index.ts';
import { stopPayloadDeprecation } from './deprecations.ts';
import { advanceStop } from './driver-flow.ts';
import { updateStopProperties } from './operations.ts';
import { getStop, getStopProofImage } from './read-stop.ts';
import { proofImageHeaders } from '../proof-files/index.ts';
import { ProofImageParams, PROOF_IMAGE_RESPONSE } from '../proof-files/index.ts';

export const stopRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Every route here renders stops, with the deprecated completion_requirements.fail.
    const rendersStops = stopPayloadDeprecation(deps);
    app.get(
      '/api/stops/:id',
      { preHandler: rendersStops, schema: { tags: ['stops'], operationId: 'getStop', summary: 'Show a stop', params: IdParams, response: { 200: StopEnvelope } } },
      async (request) => ({ stop: await getStop(deps, actorOf(request), request.params.id) }),
    );
    app.get(
      '/api/stops/:id/proof/:kind',
      { schema: { tags: ['stops'], operationId: 'getStopProofImage', summary: 'The photo or signature of a completed stop’s proof (decrypted)', params: ProofImageParams, ...PROOF_IMAGE_RESPONSE } },
      async (request, reply) => {
        const image = await getStopProofImage(deps, actorOf(request), request.params.id, request.params.kind);
        return reply.headers(proofImageHeaders(image)).send(image.bytes);
      },
    );
    app.patch(
      '/api/stops/:id/properties',
      { preHandler: rendersStops, schema: { tags: ['stops'], operationId: 'updateStopProperties', summary: 'Update stop properties', params: IdParams, body: StopPropertiesBody, response: { 200: StopEnvelope } } },
      async (request) => ({ stop: await updateStopProperties(deps, actorOf(request), request.params.id, request.body.stop) }),
    );
    for (const step of ['approach', 'arrive'] as const) {
      app.post(
        `/api/stops/:id/${step}`,
        { preHandler: rendersStops, schema: { tags: ['stops'], operationId: `${step}Stop`, summary: `Driver: ${step} a stop`, params: IdParams, body: EmptyBody, response: { 200: StopEnvelope } }, preValidation: bodyOptional },
        async (request) => ({ stop: await advanceStop(deps, actorOf(request), request.params.id, step) }),
      );
    }
    app.post(
      '/api/stops/:id/complete',
      { bodyLimit: PROOF_BODY_LIMIT, preHandler: rendersStops, schema: { tags: ['stops'], operationId: 'completeStop', summary: 'Driver: complete a stop (and the rest of its group)', params: IdParams, body: StopCompleteBody, response: { 200: StopEnvelope } }, preValidation: bodyOptional },
      async (request) => ({ stop: await advanceStop(deps, actorOf(request), request.params.id, 'complete', { packages: request.body.packages ?? [], proof: request.body.proof }) }),
    );
  };
