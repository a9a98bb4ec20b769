// Dispatch routes: bookings, stops, packages and tours, each sub-folder's own table of routes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { bookingRoutes } from './bookings/routes.ts';
import { packageRoutes } from './packages/routes.ts';
import { stopRoutes } from './stops/routes.ts';
import { tourRoutes } from './tours/routes.ts';
import { planningRoutes } from './planning/routes.ts';

export const dispatchRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(bookingRoutes(deps));
    await app.register(stopRoutes(deps));
    await app.register(packageRoutes(deps));
    await app.register(tourRoutes(deps));
    await app.register(planningRoutes(deps));
  };
