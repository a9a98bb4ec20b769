// Bookings routes: bookings, their custom stops and groups, tip, managing organizations, preferred drivers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../http/actor.ts';
import type { Deps } from '../../../deps.ts';
import { EventList, EventPageQuery } from '../../../events/schemas.ts';
import { setNextLink } from '../../../http/pagination.ts';
import { bulkItemRateLimit } from '../../../http/rate-limit.ts';
import { bodyOptional, EmptyBody, IdParams } from '../../../http/schemas.ts';
import { subRequests } from '../../../http/sub-requests.ts';
import { earningsDeprecation } from '../legacy-earnings-field.ts';
import { stopPayloadDeprecation } from '../stops/index.ts';
import * as stopOps from '../stops/operations.ts';
import { createBooking } from './create-booking.ts';
import { createBookingsInBulk } from './create-bookings-in-bulk.ts';
import * as ops from './operations.ts';
import { BULK_MAX_ITEMS, BulkBookingCreateBody, BulkBookingResults, type BulkBookingCreateInput } from './bulk-schemas.ts';
import {
  BookingCreateBody,
  BookingEnvelope,
  BookingList,
  BookingListQuery,
  CustomStopBody,
  GroupsBody,
  ManagingOrganizationsBody,
  PreferredDriversBody,
  StopEnvelope,
  TipBody,
  ViewQuery,
} from './schemas.ts';

const tags = ['bookings'];

export const bookingRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Tours and bookings carry two deprecated items: completion_requirements.fail on their stops, and earnings.
    const rendersStops = [stopPayloadDeprecation(deps), earningsDeprecation(deps)];

    app.post(
      '/api/hailing/bookings',
      { preHandler: rendersStops, schema: { tags, operationId: 'createBooking', summary: 'Create a booking', body: BookingCreateBody, response: { 201: BookingEnvelope } } },
      async (request, reply) => reply.status(201).send({ booking: await createBooking(deps, actorOf(request), request.body.booking) }),
    );
    // A bulk call is one request, its items one token each of a second bucket; its body may hold 100 bookings of
    // about 80 KiB each (decision 0320).
    const bulkItems = bulkItemRateLimit(deps, BULK_MAX_ITEMS, (request) => (request.body as BulkBookingCreateInput).bookings.length);
    app.post(
      '/api/hailing/bookings/bulk',
      { bodyLimit: 8 * deps.config.bodyLimitBytes, preHandler: [...rendersStops, bulkItems], schema: { tags, operationId: 'createBookingsInBulk', summary: 'Create up to 100 bookings, each with its own idempotency key, or check them (dry run)', body: BulkBookingCreateBody, response: { 200: BulkBookingResults } } },
      async (request) => ({ results: await createBookingsInBulk(deps, actorOf(request), request.body, subRequests(app, deps, request)) }),
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
    app.get(
      '/api/hailing/bookings/:id/events',
      { schema: { tags, operationId: 'listBookingEvents', summary: "The booking's timeline: its own events, newest first (admin; manager who sees it)", params: IdParams, querystring: EventPageQuery, response: { 200: EventList } } },
      async (request, reply) => {
        const page = await ops.listBookingEvents(deps, actorOf(request), request.params.id, request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return { events: page.items, meta: page.meta };
      },
    );
    app.post(
      '/api/hailing/bookings/:id/cancel',
      { preHandler: rendersStops, schema: { tags, operationId: 'cancelBooking', summary: 'Cancel a booking', params: IdParams, body: EmptyBody, response: { 200: BookingEnvelope } }, preValidation: bodyOptional },
      async (request) => ({ booking: await ops.cancelBooking(deps, actorOf(request), request.params.id) }),
    );
    app.post(
      '/api/hailing/bookings/:id/tracking/rotate',
      { preHandler: rendersStops, schema: { tags, operationId: 'rotateBookingTrackingLink', summary: 'Replace the tracking link (the old one stops working at once)', params: IdParams, body: EmptyBody, response: { 200: BookingEnvelope } }, preValidation: bodyOptional },
      async (request) => ({ booking: await ops.rotateBookingTrackingLink(deps, actorOf(request), request.params.id) }),
    );
    app.put(
      '/api/hailing/bookings/:id/tip',
      { preHandler: rendersStops, schema: { tags, operationId: 'setBookingTip', summary: 'Set or clear the tip', params: IdParams, body: TipBody, response: { 200: BookingEnvelope } } },
      async (request) => ({ booking: await ops.setTip(deps, actorOf(request), request.params.id, request.body.tip) }),
    );
    app.post(
      '/api/hailing/bookings/:id/stops',
      { preHandler: rendersStops, schema: { tags, operationId: 'insertBookingStop', summary: 'Insert a custom stop into a booking', params: IdParams, body: CustomStopBody, response: { 201: StopEnvelope } } },
      async (request, reply) => reply.status(201).send({ stop: await stopOps.addBookingStop(deps, actorOf(request), request.params.id, request.body) }),
    );
    app.put(
      '/api/hailing/bookings/:id/stops/groups',
      { preHandler: rendersStops, schema: { tags, operationId: 'updateStopGroups', summary: 'Bulk update of stop groups', params: IdParams, body: GroupsBody, response: { 200: BookingEnvelope } } },
      async (request) => ({ booking: await stopOps.updateStopGroups(deps, actorOf(request), request.params.id, request.body) }),
    );
    app.put(
      '/api/hailing/bookings/:id/managing_organizations',
      { preHandler: rendersStops, schema: { tags, operationId: 'setBookingManagingOrganizations', summary: 'Set the managing organizations', params: IdParams, body: ManagingOrganizationsBody, response: { 200: BookingEnvelope } } },
      async (request) => ({ booking: await ops.setManagingOrganizations(deps, actorOf(request), request.params.id, request.body.managing_organization_ids) }),
    );
    app.put(
      '/api/bookings/:id/preferred_drivers',
      { preHandler: rendersStops, schema: { tags, operationId: 'setBookingPreferredDrivers', summary: 'Set the preferred drivers of a booking', params: IdParams, body: PreferredDriversBody, response: { 200: BookingEnvelope } } },
      async (request) => ({ booking: await ops.setBookingPreferredDrivers(deps, actorOf(request), request.params.id, request.body.preferred_driver_ids) }),
    );
  };
