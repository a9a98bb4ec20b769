// buildApp: the Fastify plugin tree — parsing, auth, errors, OpenAPI and the explicit list of module routes.
import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import qs from 'qs';
import type { Deps } from './deps.ts';
import type { Actor } from './http/actor.ts';
import { authenticate, credentialOf } from './http/auth.ts';
import { AppError, databaseUnavailableError, toProblem } from './http/errors.ts';
import { databaseUnavailable, rootMessage } from './db/errors.ts';
import { pickLang } from './http/i18n.ts';
import { useTourbookMessages } from './messages.ts';
import { validationError, validatorCompiler } from './http/validation.ts';
import { registerJsonParser, strayBody } from './http/json-body.ts';
import { registerEtags } from './http/etag.ts';
import { healthRoutes } from './http/health.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerMetrics } from './http/metrics.ts';
import { authenticateThrottled, registerRateLimit } from './http/rate-limit.ts';
import { registerEmptyBodies } from './http/empty-body.ts';
import { registerUnreadBodies } from './http/unread-body.ts';
import { registerLazySerializers } from './http/lazy-serializer.ts';
import { registerRequestLog } from './http/request-log.ts';
import { registerClosingConnections } from './http/shutdown.ts';
import { registerConsistency } from './http/consistency.ts';
import { swaggerOptions } from './http/openapi.ts';
import { docsPages } from './http/docs-pages.ts';
import { webhooksDocument } from './events/webhooks-document.ts';
import { removedRoutes } from './compat/http.ts';
import { eventRoutes } from './events/routes.ts';
import { tenantRoutes } from './modules/identity/tenant-routes.ts';
import { newId } from './shared/ids.ts';
import { identityRoutes } from './modules/identity/routes.ts';
import { invitationRoutes } from './modules/identity/invitation-routes.ts';
import { placeRoutes } from './modules/places/routes.ts';
import { serviceRoutes } from './modules/services/routes.ts';
import { checkOperator, operatorRoutes } from './modules/identity/operator-routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { failureRoutes } from './modules/failures/routes.ts';
import { dispatchRoutes } from './modules/dispatch/routes.ts';
import { liveRoutes } from './modules/live/index.ts';
import { reportRoutes } from './modules/reports/index.ts';
import { analyticsRoutes } from './modules/analytics/index.ts';
import { compensationRoutes } from './modules/compensation/index.ts';
import { pageRoutes } from './pages/index.ts';
import { trackingRoutes } from './modules/tracking/index.ts';
import { shiftRoutes } from './modules/shifts/index.ts';
import { regionRoutes, travelRoutes } from './modules/region/index.ts';
import { tileRoutes } from './modules/region/tiles/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `user` (default): a tenant credential; `public`: none; `operator`: OPERATOR_TOKEN. */
    auth?: 'user' | 'public' | 'operator';
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyInstance {
    /** Every registered route (method, URL pattern, hidden from OpenAPI or not): for the OpenAPI and fuzz tests. */
    routeTable: { method: string; url: string; hidden: boolean }[];
  }
}

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

const routeNotFound = (request: FastifyRequest): AppError => new AppError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);

export async function buildApp(deps: Deps): Promise<App> {
  // A process that builds an app without createRuntime (tests, benches) reads the same catalogs.
  useTourbookMessages();
  const app = Fastify({
    loggerInstance: deps.log,
    // Fastify's two lines per request are replaced by one (src/http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : newId();
    },
    // 1 MiB by default for every route, unauthenticated ones included (decision 0111). A route that takes more
    // (the report upload) says so in one line of its options: `{ bodyLimit: deps.config.reportMaxBytes, … }`.
    bodyLimit: deps.config.bodyLimitBytes,
    routerOptions: {
      querystringParser: (str: string) => qs.parse(str, { depth: 2, arrayLimit: 100, parameterLimit: 200 }),
    },
    ajv: { customOptions: { removeAdditional: false } },
    // Requests Node's HTTP parser refuses (431 header fields too large, 400 garbage) never reach Fastify's
    // handlers: answered here, as problem+json like every other error.
    clientErrorHandler: (err, socket) => {
      if (socket.destroyed || !socket.writable) return;
      const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
      const problem = tooLarge
        ? new AppError(431, 'header_fields_too_large', 'The request header fields are too large.')
        : new AppError(400, 'malformed_request', 'The request could not be read.');
      const body = JSON.stringify(toProblem(problem, 'en'));
      const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
      socket.end(
        `HTTP/1.1 ${problem.status} ${reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    },
    // URLs the router cannot even match (bad percent-encoding, over-long path segments) name no resource: 404 problem+json.
    frameworkErrors: (error, request, reply) => {
      const lang = pickLang(request.headers['accept-language']);
      const known = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const problem = known
        ? new AppError(404, 'not_found', `No resource at ${request.url.split('?')[0]?.slice(0, 200)}.`)
        : new AppError(400, 'malformed_request', 'The request could not be read.');
      void (reply as FastifyReply).header('x-request-id', request.id).status(problem.status).type('application/problem+json').send(toProblem(problem, lang));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerLazySerializers(app as unknown as FastifyInstance);
  // Bodies are JSON (docs/api-guide.md "Conventions"): Fastify's built-in text/plain parser would turn a wrong content type into a 422.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);
  registerEmptyBodies(app as unknown as FastifyInstance);
  registerRequestLog(app as unknown as FastifyInstance);
  // Before the closing hook: the unread-body hook takes back Fastify's own `Connection: close`, a stopping process's stays (decision 1624).
  registerUnreadBodies(app as unknown as FastifyInstance);
  registerClosingConnections(app as unknown as FastifyInstance);
  registerConsistency(app as unknown as FastifyInstance, deps);
  app.decorateRequest('actor', null);
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url, hidden });
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Routes without a query-string schema accept no query parameters at all.
  app.addHook('onRoute', (route) => {
    route.schema ??= {};
    route.schema.querystring ??= { type: 'object', properties: {}, additionalProperties: false };
  });

  app.addHook('onRequest', async (request, reply) => {
    // Routing comes first (decision 0117): an unknown route is 404 before its body is parsed, validated or even read.
    if (!request.routeOptions.url) throw routeNotFound(request);
    const mode = request.routeOptions.config.auth ?? 'user';
    // Before the body is even parsed: unauthenticated callers learn nothing from validation (401 before 422).
    // Failures count against the caller's address (decision 0113).
    if (mode === 'user') request.actor = await authenticateThrottled(deps, request, () => authenticate(deps, request as FastifyRequest));
    // Unlike an Authorization header, a cookie does not keep shared caches from storing the answer (decision 0140).
    if (request.actor && credentialOf(request)?.fromCookie) void reply.header('cache-control', 'private').header('vary', 'Cookie');
    if (mode === 'operator') await authenticateThrottled(deps, request, async () => checkOperator(deps, request));
  });

  // Routes without a body schema (DELETE, bodiless GET-like actions) take no body: none, `{}` or an empty JSON body
  // are the same; anything else is refused like an unknown member of any other body (422), never ignored.
  app.addHook('preValidation', (request, _reply, done) => {
    const body: unknown = request.body;
    if (body === undefined || request.routeOptions.schema?.body) return done();
    if (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0) return done();
    done(strayBody(body));
  });

  // API conventions (docs/api-guide.md "Conventions"), in hook order: rate limit after auth, idempotency claim, If-Match, ETag, metrics.
  registerRateLimit(app, deps);
  registerIdempotency(app, deps);
  registerEtags(app);
  const metrics = registerMetrics(app, deps);

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = request.actor?.lang ?? pickLang(request.headers['accept-language']);
    let appError: AppError;
    if (error instanceof AppError) {
      appError = error;
    } else if ((error as FastifyError).validation) {
      const fe = error as FastifyError;
      appError = validationError(fe.validationContext ?? 'body', fe.validation ?? []);
    } else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      appError = new AppError(415, 'unsupported_media_type', 'Send the body as application/json.');
    } else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      appError = new AppError(413, 'payload_too_large', 'The request body is too large.');
    } else if (
      error.statusCode === 400 &&
      (error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    ) {
      appError = new AppError(400, 'malformed_request', 'The body is not valid JSON.');
    } else if (databaseUnavailable(error)) {
      // Not a bug of ours nor of the request: the database is away (a restart, a failover). Decision 1400.
      request.log.warn({ request_id: request.id, cause: rootMessage(error) }, 'database unavailable: answered 503');
      appError = databaseUnavailableError();
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      appError = new AppError(error.statusCode, 'malformed_request', error.message);
    } else {
      request.log.error({ err: error, request_id: request.id }, 'unhandled error');
      appError = new AppError(500, 'internal_error', { key: 'error.internal' }, [], { request_id: request.id });
    }
    for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
    return reply.status(appError.status).type('application/problem+json').send(toProblem(appError, lang));
  });

  app.setNotFoundHandler((request, reply) => {
    const lang = pickLang(request.headers['accept-language']);
    return reply.status(404).type('application/problem+json').send(toProblem(routeNotFound(request), lang));
  });

  await app.register(fastifySwagger, swaggerOptions(webhooksDocument()));

  // People land on the console; integrators find the reference at /docs (linked from the console's footer).
  app.get('/', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/console', 302));
  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), auth: 'public' };
  });
  await app.register(docsPages());

  // The route table, module by module.
  await app.register(healthRoutes(deps, metrics));
  await app.register(removedRoutes());
  await app.register(eventRoutes(deps));
  await app.register(tenantRoutes(deps));
  await app.register(operatorRoutes(deps));
  await app.register(identityRoutes(deps));
  await app.register(invitationRoutes(deps));
  await app.register(placeRoutes(deps));
  await app.register(serviceRoutes(deps));
  await app.register(webhookRoutes(deps));
  await app.register(failureRoutes(deps));
  await app.register(dispatchRoutes(deps));
  await app.register(liveRoutes(deps));
  await app.register(reportRoutes(deps));
  await app.register(analyticsRoutes(deps));
  await app.register(compensationRoutes(deps));
  await app.register(trackingRoutes(deps));
  await app.register(shiftRoutes(deps));
  await app.register(regionRoutes(deps));
  await app.register(travelRoutes(deps));
  await app.register(tileRoutes(deps));
  await app.register(pageRoutes(deps));

  return app as unknown as App;
}
