// Compensation routes (docs/api-guide.md "Tour compensation, tips and legacy earnings"): read, base earnings, bonuses, history, tip resume.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { deprecatedRoute } from '../../compat/http.ts';
import { actorOf } from '../../http/actor.ts';
import type { Deps } from '../../deps.ts';
import { bodyOptional, EmptyBody } from '../../http/schemas.ts';
import { deleteBaseEarnings, deleteBonus, getCompensation, getCompensationHistory, setBaseEarnings, setBonus } from './operations.ts';
import { BookingEnvelope, earningsDeprecation, TourEnvelope } from '../dispatch/index.ts';
import { setEarnings } from './set-legacy-earnings.ts';
import { BonusParams, CompensationEnvelope, ComponentBody, EarningsBody, HistoryEnvelope, TourIdParams } from './schemas.ts';
import { resumeTips } from './tip-distribution.ts';

const tags = ['compensation'];

export const compensationRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/api/tours/:id/compensation', { schema: { tags, operationId: 'getCompensation', summary: "A tour's compensation", params: TourIdParams, response: { 200: CompensationEnvelope } } }, async (request) => ({
      compensation: await getCompensation(deps, actorOf(request), request.params.id),
    }));

    app.put(
      '/api/tours/:id/compensation/base',
      { schema: { tags, operationId: 'setBaseEarnings', summary: 'Set the base earnings', params: TourIdParams, body: ComponentBody, response: { 200: CompensationEnvelope } } },
      async (request) => ({ compensation: await setBaseEarnings(deps, actorOf(request), request.params.id, request.body) }),
    );

    app.delete('/api/tours/:id/compensation/base', { schema: { tags, operationId: 'deleteBaseEarnings', summary: 'Remove the base earnings', params: TourIdParams, response: { 200: CompensationEnvelope } } }, async (request) => ({
      compensation: await deleteBaseEarnings(deps, actorOf(request), request.params.id),
    }));

    app.put(
      '/api/tours/:id/compensation/bonus/:key',
      { schema: { tags, operationId: 'setBonus', summary: 'Set (or replace) a bonus', params: BonusParams, body: ComponentBody, response: { 200: CompensationEnvelope } } },
      async (request) => ({ compensation: await setBonus(deps, actorOf(request), request.params.id, request.params.key, request.body) }),
    );

    app.delete('/api/tours/:id/compensation/bonus/:key', { schema: { tags, operationId: 'deleteBonus', summary: 'Remove a bonus', params: BonusParams, response: { 200: CompensationEnvelope } } }, async (request) => ({
      compensation: await deleteBonus(deps, actorOf(request), request.params.id, request.params.key),
    }));

    app.get('/api/tours/:id/compensation/history', { schema: { tags, operationId: 'getCompensationHistory', summary: "Every change of a tour's compensation, oldest first", params: TourIdParams, response: { 200: HistoryEnvelope } } }, async (request) => ({
      history: await getCompensationHistory(deps, actorOf(request), request.params.id),
    }));

    app.post(
      '/api/tours/:id/compensation/tips/resume',
      { schema: { tags, operationId: 'resumeTipDistribution', summary: "Re-evaluate a tour's tip distribution", params: TourIdParams, body: EmptyBody, response: { 200: CompensationEnvelope } }, preValidation: bodyOptional },
      async (request) => ({ compensation: await resumeTips(deps, actorOf(request), request.params.id) }),
    );

    // Deprecated: 404 `removed` once the tenant enforces the sunset (2026-11-06); the id is a booking's or a tour's.
    app.put(
      '/api/hailing/bookings/:id/earnings',
      {
        onRequest: deprecatedRoute(deps, 'legacy_earnings'),
        preHandler: earningsDeprecation(deps),
        schema: {
          tags,
          operationId: 'setLegacyEarnings', summary: 'Deprecated: set the legacy earnings of a booking or a tour',
          deprecated: true,
          params: TourIdParams,
          body: EarningsBody,
          response: { 200: Type.Union([BookingEnvelope, TourEnvelope]) },
        },
      },
      async (request) => setEarnings(deps, actorOf(request), request.params.id, request.body.earnings),
    );
  };
