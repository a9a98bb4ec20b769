// Planning routes: optimise one tour, plan tours for waiting stops (docs/api-guide.md "Optimising tours and planning dispatch").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../../deps.ts';
import { actorOf } from '../../../http/actor.ts';
import { bodyOptional, IdParams } from '../../../http/schemas.ts';
import { earningsDeprecation } from '../legacy-earnings-field.ts';
import { stopPayloadDeprecation } from '../stops/index.ts';
import { optimizeTour } from './optimize-tour.ts';
import { applyPlanJob } from './apply-job.ts';
import { getPlanJob } from './plan-job.ts';
import { planDispatch } from './plan-tours.ts';
import { AppliedPlanResponse, ApplyPlanBody, OptimizeTourBody, OptimizeTourResponse, PlanBody, PlanJobResponse, PlanResponse } from './schemas.ts';

const tags = ['tours'];

export const planningRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Both render tours with their stops, so both carry the deprecation headers of those payloads.
    const rendersStops = [stopPayloadDeprecation(deps), earningsDeprecation(deps)];
    app.post(
      '/api/hailing/tours/:id/optimize',
      {
        preHandler: rendersStops,
        preValidation: bodyOptional,
        schema: { tags, operationId: 'optimizeTour', summary: "Reorder a tour's open stops by the route optimiser", params: IdParams, body: OptimizeTourBody, response: { 200: OptimizeTourResponse } },
      },
      async (request) => optimizeTour(deps, actorOf(request), request.params.id, request.body),
    );
    app.post(
      '/api/hailing/dispatch/plan',
      {
        preHandler: rendersStops,
        schema: {
          tags,
          operationId: 'planDispatch',
          summary: 'Propose (and with apply, create) tours for waiting stops, with drivers by their shifts',
          body: PlanBody,
          response: { 200: PlanResponse, 201: PlanResponse, 202: PlanJobResponse },
        },
      },
      async (request, reply) => {
        const answer = await planDispatch(deps, actorOf(request), request.body);
        return reply.status(answer.status).send(answer.body);
      },
    );
    app.get(
      '/api/hailing/dispatch/plans/:id',
      { schema: { tags, operationId: 'getDispatchPlan', summary: 'A plan run as a job: running, done (with the plan) or failed', params: IdParams, response: { 200: PlanJobResponse } } },
      async (request) => ({ plan: await getPlanJob(deps, actorOf(request), request.params.id) }),
    );
    app.post(
      '/api/hailing/dispatch/plans/:id/apply',
      {
        preHandler: rendersStops,
        preValidation: bodyOptional,
        schema: {
          tags,
          operationId: 'applyDispatchPlan',
          summary: 'Apply a plan run as a job, as proposed: all its tours or those chosen, in one transaction, once',
          params: IdParams,
          body: ApplyPlanBody,
          response: { 201: AppliedPlanResponse },
        },
      },
      async (request, reply) => reply.status(201).send(await applyPlanJob(deps, actorOf(request), request.params.id, request.body ?? {})),
    );
  };
