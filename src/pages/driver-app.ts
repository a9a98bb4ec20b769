// The driver app's installable parts (docs/driver-app.md): the web manifest and the service worker, both under
// /driver/ so the worker's scope is the app. The worker is the build's dist/web/driver-sw.js, revalidated on every
// load (no-cache) so a new build reaches phones at their next start.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError, toProblem } from '../http/errors.ts';
import { pickLang } from '../http/i18n.ts';
import type { WebAssets } from './assets.ts';
import { contentSecurityPolicy } from './security-headers.ts';

const escapeAttr = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A tour opened by its link (or from the home screen): its id. */
const TOUR_PAGE = /^\/driver\/tours\/([0-9a-f-]{36})(?:[/?#]|$)/;

/**
 * The page's <head> additions: the manifest link, the home-screen icon, the chunks, and the reads the app starts
 * with — the session and an opened tour — asked for by the HTML, so on a phone's network they arrive while the
 * scripts load instead of after them (decision 1209). The app's own requests for them take these answers: the same
 * URL, mode and credentials, and no header of their own.
 */
export function driverHead(assets: WebAssets, url: string): string {
  const touch = assets.publicUrl('driver-icon-192.png');
  const preload = (assets.page('driver')?.preload ?? []).map((href) => `<link rel="modulepreload" href="${escapeAttr(href)}">`).join('');
  const tour = TOUR_PAGE.exec(url)?.[1];
  const reads = ['/api/user', ...(tour ? [`/api/hailing/tours/${tour}`] : [])]
    .map((href) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeAttr(href)}">`)
    .join('');
  return `<link rel="manifest" href="/driver/manifest.webmanifest">${touch ? `<link rel="apple-touch-icon" href="${escapeAttr(touch)}">` : ''}${reads}${preload}`;
}

export function driverManifest(assets: WebAssets, lang: 'en' | 'de'): Record<string, unknown> {
  const icons = [
    { file: 'driver-icon-192.png', sizes: '192x192', type: 'image/png' },
    { file: 'driver-icon-512.png', sizes: '512x512', type: 'image/png' },
    { file: 'icon.svg', sizes: 'any', type: 'image/svg+xml' },
  ].flatMap(({ file, ...icon }) => {
    const src = assets.publicUrl(file);
    return src ? [{ src, ...icon, purpose: 'any' }] : [];
  });
  return {
    id: '/driver/',
    name: lang === 'de' ? 'Tourbook Fahrer' : 'Tourbook Driver',
    short_name: lang === 'de' ? 'Fahrer' : 'Driver',
    lang,
    start_url: '/driver/',
    scope: '/driver/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#f6f7f9',
    theme_color: '#0b1f4d',
    icons,
  };
}

export function driverAppRoutes(app: FastifyInstance, assets: WebAssets): void {
  const config = { auth: 'public' as const };
  const schema = { hide: true };
  app.get('/driver/manifest.webmanifest', { config, schema }, async (request, reply) => {
    const lang = pickLang(request.headers['accept-language']) === 'de' ? 'de' : 'en';
    void reply.headers({ 'content-type': 'application/manifest+json', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', vary: 'accept-language' });
    return reply.send(JSON.stringify(driverManifest(assets, lang)));
  });
  app.get('/driver/sw.js', { config, schema }, async (request, reply) => {
    const file = path.join(assets.dir, 'driver-sw.js');
    if (!fs.existsSync(file)) {
      const problem = new AppError(404, 'not_found', 'The driver app is not built: run `npm run build`.');
      return reply.status(404).type('application/problem+json').send(toProblem(problem, pickLang(request.headers['accept-language'])));
    }
    void reply.headers({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': contentSecurityPolicy(),
      'x-content-type-options': 'nosniff',
      'service-worker-allowed': '/driver/',
    });
    return reply.send(fs.readFileSync(file));
  });
}
