// The people's pages (docs/console.md): /console is a single-page app whose HTML
// names the hashed script and styles of the web build; /assets/* serves those files immutable and precompressed.
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { AppError, toProblem } from '../http/errors.ts';
import { pickLang } from '../http/i18n.ts';
import { contentTypeOf, findWebDir, openWebAssets, type WebAssets } from './assets.ts';
import { contentSecurityPolicy, pageHeaders } from './security-headers.ts';
import { driverAppRoutes, driverHead } from './driver-app.ts';
import { trackPageRoute } from './track-page.ts';

/** Any query string: the pages' own router reads it, the server does not. */
const ANY_QUERY = { type: 'object', additionalProperties: true } as const;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface PageShell {
  title: string;
  lang: string;
  script: string;
  styles: string[];
  icon: string | null;
  /** Server-rendered content inside the app's root, shown before (or without) the script. */
  body?: string;
  head?: string;
  themeColor?: string;
}

export function renderShell(shell: PageShell): string {
  const styles = shell.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');
  const icon = shell.icon ? `<link rel="icon" href="${escapeHtml(shell.icon)}" type="image/svg+xml">` : '';
  return (
    `<!doctype html><html lang="${escapeHtml(shell.lang)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="theme-color" content="${escapeHtml(shell.themeColor ?? '#1d4ed8')}">` +
    `<title>${escapeHtml(shell.title)}</title>${icon}${styles}${shell.head ?? ''}` +
    `<script type="module" src="${escapeHtml(shell.script)}"></script></head>` +
    `<body><div id="root">${shell.body ?? ''}</div></body></html>`
  );
}

function missingBuild(request: FastifyRequest, reply: FastifyReply) {
  const problem = new AppError(503, 'web_build_missing', 'The web pages are not built: run `npm run build`.');
  return reply.status(503).type('application/problem+json').send(toProblem(problem, pickLang(request.headers['accept-language'])));
}

/** An operator's tile server (MAP_TILE_URL): its origin joins the CSP, its template reaches the page in a meta tag. */
function mapTiles(tileUrl: string | null): { csp: string; head: string } {
  if (!tileUrl) return { csp: contentSecurityPolicy(), head: '' };
  const origin = new URL(tileUrl.replace(/[{}]/g, '')).origin;
  // MapLibre fetches raster tiles (connect-src) and decodes them as images (img-src).
  return { csp: contentSecurityPolicy({ connect: [origin], img: [origin] }), head: `<meta name="tourbook-map-tiles" content="${escapeHtml(tileUrl)}">` };
}

/** One single-page app at /<name> and every path below it (the app's own router takes over in the browser). */
function singlePageApp(
  app: FastifyInstance,
  assets: WebAssets,
  name: 'console' | 'driver',
  options: { title: string; permissions: string; tiles: { csp: string; head: string }; head?: (assets: WebAssets, url: string) => string; themeColor?: string },
) {
  const { csp } = options.tiles;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const files = assets.page(name);
    if (!files) return missingBuild(request, reply);
    const lang = pickLang(request.headers['accept-language']);
    const head = options.tiles.head + (options.head?.(assets, request.url) ?? '');
    const html = renderShell({ title: options.title, lang, ...files, icon: assets.publicUrl('icon.svg'), head, ...(options.themeColor ? { themeColor: options.themeColor } : {}) });
    void reply.headers({ ...pageHeaders({ csp, permissions: options.permissions }), 'cache-control': 'no-cache' });
    return reply.type('text/html; charset=utf-8').send(html);
  };
  const config = { auth: 'public' as const };
  const schema = { hide: true, querystring: ANY_QUERY };
  app.get(`/${name}`, { config, schema }, handler);
  app.get(`/${name}/*`, { config, schema }, handler);
}

export function pageRoutes(deps: Deps) {
  return async (app: FastifyInstance): Promise<void> => {
    const dir = findWebDir();
    const assets = openWebAssets(dir ?? '/nonexistent');
    const tiles = mapTiles(deps.config.mapTileUrl);

    app.get('/assets/:name', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const { name } = request.params as { name: string };
      const found = assets.file(name, request.headers['accept-encoding']);
      if (!found) {
        const problem = new AppError(404, 'not_found', `No asset ${name.slice(0, 200)}.`);
        return reply.status(404).type('application/problem+json').send(toProblem(problem, pickLang(request.headers['accept-language'])));
      }
      void reply.headers({
        'content-type': contentTypeOf(name),
        'content-length': String(fs.statSync(found.path).size),
        // Hashed names never change content: cached for a year, never revalidated.
        'cache-control': 'public, max-age=31536000, immutable',
        vary: 'accept-encoding',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
        ...(found.encoding ? { 'content-encoding': found.encoding } : {}),
      });
      return reply.send(fs.createReadStream(found.path));
    });

    trackPageRoute(app, deps, assets);
    singlePageApp(app, assets, 'console', { title: 'Tourbook', permissions: 'camera=(), geolocation=(), microphone=()', tiles });
    driverAppRoutes(app, assets);
    singlePageApp(app, assets, 'driver', {
      title: 'Tourbook Driver',
      // The driver app takes photos (camera) and reports positions (geolocation) from our own origin only.
      permissions: 'camera=(self), geolocation=(self), microphone=()',
      tiles: { csp: contentSecurityPolicy(), head: '' },
      head: driverHead,
      themeColor: '#0b1f4d',
    });
  };
}
