// The recipient's delivery instructions through the tracking link (docs/tracking.md "Instructions", decision 1788):
// public like the read, limited per client address; the page writes from its own origin, so no CORS for the write.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { giveInstructions, readInstructions } from './instructions.ts';
import { InstructionsBody, InstructionsEnvelope } from './instructions-schemas.ts';
import { addressRateLimit } from './rate-limit.ts';
import { TokenParams } from './schemas.ts';

const tags = ['tracking'];

const noStore = async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  reply.header('cache-control', 'no-store');
};

export const instructionsRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const limited = addressRateLimit(deps);
    app.get(
      '/api/tracking/:token/instructions',
      {
        config: { auth: 'public' },
        onRequest: [noStore, limited],
        schema: { tags, operationId: 'getTrackingInstructions', summary: "The recipient's delivery instructions for the driver", params: TokenParams, response: { 200: InstructionsEnvelope } },
      },
      async (request) => ({ instructions: await readInstructions(deps, request.params.token) }),
    );
    app.put(
      '/api/tracking/:token/instructions',
      {
        config: { auth: 'public' },
        onRequest: [noStore, limited],
        schema: {
          tags,
          operationId: 'putTrackingInstructions',
          summary: 'The recipient leaves instructions for the driver: at the door or with a neighbour, and a note (until the delivery is done)',
          params: TokenParams,
          body: InstructionsBody,
          response: { 200: InstructionsEnvelope },
        },
      },
      async (request) => ({ instructions: await giveInstructions(deps, request.params.token, request.body.instructions) }),
    );
  };
