// Response serializers compiled on a route's first response instead of at start-up (decision 0130).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

/**
 * The same fast-json-stringify compiler Fastify uses by default, made lazy: compiling ~100 routes' response schemas
 * up front cost a large share of the start-up, and most routes are not called in a process's first seconds.
 */
export function registerLazySerializers(app: FastifyInstance): void {
  const compile = SerializerSelector()(undefined, {});
  app.setSerializerCompiler((route) => {
    let serialize: ((data: unknown) => string) | null = null;
    return (data: unknown) => (serialize ??= compile(route as Parameters<typeof compile>[0]))(data);
  });
}
