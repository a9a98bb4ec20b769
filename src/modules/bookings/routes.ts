// Bookings routes: bookings, custom stops, groups, stop properties and driver steps, packages.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { setNextLink } from '../../http/pagination.ts';
import { bodyOptional, EmptyBody, IdParams } from '../../http/schemas.ts';
import { stopPayloadDeprecation } from '../failures/index.ts';
import { advanceStop, getStop } from '../tours/driver-flow.ts';
import * as ops from './operations.ts';
import { forceDelivery, lookupPackage, removePackageFromTour, transitionPackage } from './packages.ts';
import {
  BookingCreateBody,
  BookingEnvelope,
  BookingList,
  BookingListQuery,
  CustomStopBody,
  ForceDeliveryBody,
  GroupsBody,
  LookedUpPackageEnvelope,
  ManagingOrganizationsBody,
  PackageEnvelope,
  PackageLookupBody,
  PackageTransitionBody,
  PreferredDriversBody,
  StopCompleteBody,
  StopEnvelope,
  StopPropertiesBody,
  TipBody,
  ViewQuery,
} from './schemas.ts';

const tags = ['bookings'];

export const bookingRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Every route here but the package ones renders stops, with the deprecated completion_requirements.fail.
    const rendersStops = stopPayloadDeprecation(deps);
    const show = (request: { actor: unknown }, id: string) => ops.getBooking(deps, actorOf(request as never), id);

    app.post(
      '/api/hailing/bookings',
      { preHandler: rendersStops, schema: { tags, operationId: 'createBooking', summary: 'Create a booking', body: BookingCreateBody, response: { 201: BookingEnvelope } } },
      async (request, reply) => reply.status(201).send({ booking: await ops.createBooking(deps, actorOf(request), request.body.booking) }),
    );
    app.get(
      '/api/hailing/bookings',
      { preHandler: rendersStops, schema: { tags, operationId: 'listBookings', summary: 'List visible bookings, newest first', querystring: BookingListQuery, response: { 200: BookingList } } },
      async (request, reply) => {
        const page = await ops.listBookings(deps, actorOf(request), request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return page;
      },
    );
    app.get(
      '/api/hailing/bookings/:id',
      { preHandler: rendersStops, schema: { tags, operationId: 'getBooking', summary: 'Show a booking', params: IdParams, querystring: ViewQuery, response: { 200: BookingEnvelope } } },
      async (request) => ({ booking: await ops.getBooking(deps, actorOf(request), request.params.id, request.query.view) }),
    );
    app.post(
      '/api/hailing/bookings/:id/cancel',
      { preHandler: rendersStops, schema: { tags, operationId: 'cancelBooking', summary: 'Cancel a booking', params: IdParams, body: EmptyBody, response: { 200: BookingEnvelope } }, preValidation: bodyOptional },
      async (request) => {
        await ops.cancelBooking(deps, actorOf(request), request.params.id);
        return { booking: await show(request, request.params.id) };
      },
    );
    app.put(
      '/api/hailing/bookings/:id/tip',
      { preHandler: rendersStops, schema: { tags, operationId: 'setBookingTip', summary: 'Set or clear the tip', params: IdParams, body: TipBody, response: { 200: BookingEnvelope } } },
      async (request) => {
        await ops.setTip(deps, actorOf(request), request.params.id, request.body.tip);
        return { booking: await show(request, request.params.id) };
      },
    );
    app.post(
      '/api/hailing/bookings/:id/stops',
      { preHandler: rendersStops, schema: { tags, operationId: 'insertBookingStop', summary: 'Insert a custom stop into a booking', params: IdParams, body: CustomStopBody, response: { 201: StopEnvelope } } },
      async (request, reply) => {
        const stopId = await ops.addBookingStop(deps, actorOf(request), request.params.id, request.body);
        return reply.status(201).send({ stop: await getStop(deps, actorOf(request), stopId) });
      },
    );
    app.put(
      '/api/hailing/bookings/:id/stops/groups',
      { preHandler: rendersStops, schema: { tags, operationId: 'updateStopGroups', summary: 'Bulk update of stop groups', params: IdParams, body: GroupsBody, response: { 200: BookingEnvelope } } },
      async (request) => {
        await ops.updateStopGroups(deps, actorOf(request), request.params.id, request.body);
        return { booking: await show(request, request.params.id) };
      },
    );
    app.put(
      '/api/hailing/bookings/:id/managing_organizations',
      { preHandler: rendersStops, schema: { tags, operationId: 'setBookingManagingOrganizations', summary: 'Set the managing organizations', params: IdParams, body: ManagingOrganizationsBody, response: { 200: BookingEnvelope } } },
      async (request) => {
        await ops.setManagingOrganizations(deps, actorOf(request), request.params.id, request.body.managing_organization_ids);
        return { booking: await show(request, request.params.id) };
      },
    );
    app.put(
      '/api/bookings/:id/preferred_drivers',
      { preHandler: rendersStops, schema: { tags, operationId: 'setBookingPreferredDrivers', summary: 'Set the preferred drivers of a booking', params: IdParams, body: PreferredDriversBody, response: { 200: BookingEnvelope } } },
      async (request) => {
        await ops.setBookingPreferredDrivers(deps, actorOf(request), request.params.id, request.body.preferred_driver_ids);
        return { booking: await show(request, request.params.id) };
      },
    );

    app.get(
      '/api/stops/:id',
      { preHandler: rendersStops, schema: { tags: ['stops'], operationId: 'getStop', summary: 'Show a stop', params: IdParams, response: { 200: StopEnvelope } } },
      async (request) => ({ stop: await getStop(deps, actorOf(request), request.params.id) }),
    );
    app.patch(
      '/api/stops/:id/properties',
      { preHandler: rendersStops, schema: { tags: ['stops'], operationId: 'updateStopProperties', summary: 'Update stop properties', params: IdParams, body: StopPropertiesBody, response: { 200: StopEnvelope } } },
      async (request) => {
        await ops.updateStopProperties(deps, actorOf(request), request.params.id, request.body.stop);
        return { stop: await getStop(deps, actorOf(request), request.params.id) };
      },
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
      { preHandler: rendersStops, schema: { tags: ['stops'], operationId: 'completeStop', summary: 'Driver: complete a stop (and the rest of its group)', params: IdParams, body: StopCompleteBody, response: { 200: StopEnvelope } }, preValidation: bodyOptional },
      async (request) => ({ stop: await advanceStop(deps, actorOf(request), request.params.id, 'complete', { packages: request.body.packages ?? [], proof: request.body.proof }) }),
    );

    app.post(
      '/api/hailing/packages/lookup',
      { schema: { tags: ['packages'], operationId: 'lookupPackage', summary: 'Find a package by shortcode or external label', body: PackageLookupBody, response: { 200: LookedUpPackageEnvelope } } },
      async (request) => ({ package: await lookupPackage(deps, actorOf(request), request.body) }),
    );
    app.post(
      '/api/hailing/packages/:id/remove_from_tour',
      { schema: { tags: ['packages'], operationId: 'removePackageFromTour', summary: 'Take a package’s stops off their tour', params: IdParams, body: EmptyBody, response: { 200: PackageEnvelope } }, preValidation: bodyOptional },
      async (request) => ({ package: await removePackageFromTour(deps, actorOf(request), request.params.id) }),
    );
    app.post(
      '/api/hailing/packages/:id/force_delivery',
      { schema: { tags: ['packages'], operationId: 'forceDeliverPackage', summary: 'Force the delivery of a package', params: IdParams, body: ForceDeliveryBody, response: { 200: PackageEnvelope } } },
      async (request) => ({ package: await forceDelivery(deps, actorOf(request), request.params.id, request.body) }),
    );
    app.post(
      '/api/hailing/packages/:id/transition',
      { schema: { tags: ['packages'], operationId: 'transitionPackage', summary: 'Announce or cancel a package', params: IdParams, body: PackageTransitionBody, response: { 200: PackageEnvelope } } },
      async (request) => ({ package: await transitionPackage(deps, actorOf(request), request.params.id, request.body.event) }),
    );
  };
