// The recipient's options through the tracking link (docs/tracking.md "Instructions", "A later day"; decision 1788):
// instructions for the driver and a later delivery day. Public like the read, limited per client address; the page
// writes from its own origin, so no CORS for the writes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { changeDeliveryDate, readDeliveryDate } from './delivery-date.ts';
import { giveInstructions, readInstructions } from './instructions.ts';
import { DeliveryDateBody, DeliveryDateEnvelope, InstructionsBody, InstructionsEnvelope } from './recipient-options-schemas.ts';
import { addressRateLimit } from './rate-limit.ts';
import { TokenParams } from './schemas.ts';

const tags = ['tracking'];

const noStore = async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  reply.header('cache-control', 'no-store');
};

export const recipientOptionsRoutes =
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
    app.get(
      '/api/tracking/:token/delivery_date',
      {
        config: { auth: 'public' },
        onRequest: [noStore, limited],
        schema: { tags, operationId: 'getTrackingDeliveryDate', summary: "The delivery's day and the later days the recipient may move it to", params: TokenParams, response: { 200: DeliveryDateEnvelope } },
      },
      async (request) => ({ delivery_date: await readDeliveryDate(deps, request.params.token) }),
    );
    app.put(
      '/api/tracking/:token/delivery_date',
      {
        config: { auth: 'public' },
        onRequest: [noStore, limited],
        schema: {
          tags,
          operationId: 'putTrackingDeliveryDate',
          summary: 'The recipient moves the delivery to one of the later days offered (once, before anything is under way)',
          params: TokenParams,
          body: DeliveryDateBody,
          response: { 200: DeliveryDateEnvelope },
        },
      },
      async (request) => ({ delivery_date: await changeDeliveryDate(deps, request.params.token, request.body.delivery_date.date) }),
    );
  };
