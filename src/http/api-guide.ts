// GET /docs/api-guide: the API guide (docs/api-guide.md) as served text, so `Link: </docs/api-guide#…>` resolves.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';

/** The guide next to the sources, whether they run from src/ or from a build directory one level deeper. */
function guidePath(): string | null {
  for (let dir = import.meta.dirname, i = 0; i < 4; i++, dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'docs', 'api-guide.md');
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

export const apiGuideRoute = (): FastifyPluginAsync => async (app) => {
  const file = guidePath();
  app.get('/docs/api-guide', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    if (!file) return reply.status(404).type('text/plain; charset=utf-8').send('The API guide is not installed with this build.');
    return reply.type('text/markdown; charset=utf-8').send(fs.readFileSync(file, 'utf8'));
  });
};
