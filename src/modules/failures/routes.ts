// Failures routes: reasons (current, legacy, stop failure catalogue, admin management) and fail-stop.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../http/actor.ts';
import { deprecatedRoute } from '../../compat/http.ts';
import type { Deps } from '../../deps.ts';
import { IdParams, Nullable } from '../../http/schemas.ts';
import { StopSchema, stopPayloadDeprecation } from '../dispatch/index.ts';
import { failStop } from './operations/fail-stop.ts';
import {
  createPackageFailureReason,
  deletePackageFailureReason,
  getPackageFailureReason,
  listAdminPackageFailureReasons,
  listLegacyFailureReasons,
  listPackageFailureReasons,
  listStopFailureReasons,
  updatePackageFailureReason,
} from './operations/reasons.ts';
import {
  AdminReasonEnvelope,
  AdminReasonList,
  FailStopBody,
  LegacyReasonList,
  ReasonCreateBody,
  ReasonKeyParams,
  ReasonList,
  ReasonUpdateBody,
} from './schemas.ts';

/** Reason lists are short catalogues: one page, with the list envelope every list has. */
const ONE_PAGE = { next_cursor: null, has_more: false };
const tags = ['reasons'];

const FailedStop = Type.Object({ stop: StopSchema, recovery_stop: Nullable(StopSchema) });

export const failureRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/stops/:id/fail',
      {
        schema: {
          tags: ['stops'],
          operationId: 'failStop', summary: 'Fail an approaching or arrived tour stop with an outcome (default skip_recovery)',
          description: 'Outcomes not in failure_options answer 422 outcome_not_available naming the reason; nothing changes.',
          params: IdParams,
          body: FailStopBody,
          response: { 200: FailedStop },
        },
        preHandler: stopPayloadDeprecation(deps),
      },
      async (request) => failStop(deps, actorOf(request), request.params.id, request.body ?? {}),
    );

    app.get(
      '/api/reasons/package_failure',
      { schema: { tags, operationId: 'listPackageFailureReasons', summary: "The tenant's package failure reasons", response: { 200: ReasonList } } },
      async (request) => ({ reasons: await listPackageFailureReasons(deps, actorOf(request)), meta: ONE_PAGE }),
    );
    app.get(
      '/api/reasons/stop_failure',
      { schema: { tags, operationId: 'listStopFailureReasons', summary: 'The platform catalogue of stop failure reasons', response: { 200: ReasonList } } },
      async (request) => ({ reasons: listStopFailureReasons(actorOf(request)), meta: ONE_PAGE }),
    );
    app.get(
      '/api/hailing/failure_reasons',
      {
        schema: {
          tags,
          operationId: 'listLegacyFailureReasons', summary: 'Package failure reasons in the legacy shape',
          description: 'Deprecated: removal on 2026-09-16; use GET /api/reasons/package_failure.',
          deprecated: true,
          response: { 200: LegacyReasonList },
        },
        preHandler: deprecatedRoute(deps, 'hailing_failure_reasons'),
      },
      async (request) => ({ failure_reasons: await listLegacyFailureReasons(deps, actorOf(request)) }),
    );

    app.get(
      '/api/admin/reasons/package_failure',
      { schema: { tags, operationId: 'adminListPackageFailureReasons', summary: 'Package failure reasons with both labels (admins)', response: { 200: AdminReasonList } } },
      async (request) => ({ reasons: await listAdminPackageFailureReasons(deps, actorOf(request)), meta: ONE_PAGE }),
    );
    app.post(
      '/api/admin/reasons/package_failure',
      { schema: { tags, operationId: 'createPackageFailureReason', summary: 'Add a package failure reason (admins)', body: ReasonCreateBody, response: { 201: AdminReasonEnvelope } } },
      async (request, reply) => reply.status(201).send({ reason: await createPackageFailureReason(deps, actorOf(request), request.body.reason) }),
    );
    app.get(
      '/api/admin/reasons/package_failure/:key',
      { schema: { tags, operationId: 'getPackageFailureReason', summary: 'One package failure reason (admins)', params: ReasonKeyParams, response: { 200: AdminReasonEnvelope } } },
      async (request) => ({ reason: await getPackageFailureReason(deps, actorOf(request), request.params.key) }),
    );
    for (const method of ['patch', 'put'] as const) {
      app[method](
        '/api/admin/reasons/package_failure/:key',
        {
          schema: {
            tags,
            operationId: method === 'patch' ? 'updatePackageFailureReason' : 'replacePackageFailureReason',
            summary: 'Change a package failure reason; only the fields given (admins)',
            params: ReasonKeyParams,
            body: ReasonUpdateBody,
            response: { 200: AdminReasonEnvelope },
          },
        },
        async (request) => ({ reason: await updatePackageFailureReason(deps, actorOf(request), request.params.key, request.body.reason) }),
      );
    }
    app.delete(
      '/api/admin/reasons/package_failure/:key',
      { schema: { tags, operationId: 'deletePackageFailureReason', summary: 'Remove a package failure reason (admins)', params: ReasonKeyParams, response: { 204: Type.Null() } } },
      async (request, reply) => {
        await deletePackageFailureReason(deps, actorOf(request), request.params.key);
        return reply.status(204).send(null);
      },
    );
  };
