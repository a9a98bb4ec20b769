// Bodiless requests: a missing body is `{}` for routes whose body schema requires nothing (decision 0131).
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

/** A body schema that requires nothing (every action without a body, and ones whose fields are all optional). */
function requiresNothing(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const { type, required } = schema as { type?: unknown; required?: unknown[] };
  return type === 'object' && (!Array.isArray(required) || required.length === 0);
}

const noBodyIsEmptyObject = async (request: FastifyRequest): Promise<void> => {
  request.body ??= {};
};

/**
 * Registered before the routes: the onRoute hook must see each of them. An empty body sent as application/json is
 * already "no body" by the JSON parser (src/http/json-body.ts); validation runs after preValidation, so a missing
 * body is validated, and handled, as `{}`.
 */
export function registerEmptyBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!requiresNothing(route.schema?.body)) return;
    const existing = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [noBodyIsEmptyObject, ...existing];
  });
}
