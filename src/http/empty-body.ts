// Bodiless requests: no body, `{}`, and an empty body sent as application/json all mean "nothing to say" (decision 0131).
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

/** Registered before the routes: the onRoute hook must see each of them. */
export function registerEmptyBodies(app: FastifyInstance): void {
  // Fastify's own JSON parser (prototype-poisoning checks included) for every non-empty body; an empty one is no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
  // Validation runs after preValidation: a missing body is validated (and handled) as `{}`.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!requiresNothing(route.schema?.body)) return;
    const existing = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [noBodyIsEmptyObject, ...existing];
  });
}
