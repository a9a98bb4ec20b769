// /track/{token}: the recipient's page (docs/tracking.md, docs/tracking.md). Status and ETA are rendered here into the
// HTML, so the essentials work without JavaScript; the `track` script then goes live. Private: noindex, no referrer,
// never cached (decision 1103).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { AppError } from '../http/errors.ts';
import { pickLang } from '../http/i18n.ts';
import { readTrackingPage } from '../modules/tracking/index.ts';
import { escapeHtml, renderSender, renderTracking, timeFormatter, trackText, type TrackingView } from '../../web/track/view.ts';
import type { WebAssets } from './assets.ts';
import { contentSecurityPolicy, pageHeaders } from './security-headers.ts';

const TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * The sender's colour (decision 1784) as the page's one inline style, allowed by its hash: the policy stays strict
 * (no 'unsafe-inline'), and the colour was checked as #rrggbb when it was saved.
 */
function brandStyle(color: string | null): { style: string; csp: string } | null {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return null;
  const style = `:root{--c-brand:${color}}`;
  return { style, csp: contentSecurityPolicy({ style: [`'sha256-${createHash('sha256').update(style).digest('base64')}'`] }) };
}

function page(assets: WebAssets, lang: 'en' | 'de', title: string, body: string, inlineStyle = ''): string {
  const files = assets.page('track');
  const styles = (files?.styles ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');
  const script = files ? `<script type="module" src="${escapeHtml(files.script)}"></script>` : '';
  const icon = assets.publicUrl('icon.svg');
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">` +
    `<meta name="referrer" content="no-referrer"><meta name="theme-color" content="#1d4ed8">` +
    `<title>${escapeHtml(title)}</title>${icon ? `<link rel="icon" href="${escapeHtml(icon)}" type="image/svg+xml">` : ''}${styles}` +
    `${inlineStyle ? `<style>${inlineStyle}</style>` : ''}${script}</head>` +
    `<body><main class="track" id="track">${body}</main></body></html>`
  );
}

export function trackPageRoute(app: FastifyInstance, deps: Deps, assets: WebAssets): void {
  const csp = contentSecurityPolicy();
  app.get('/track/:token', { config: { auth: 'public' }, schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const { token } = request.params as { token: string };
    const lang = pickLang(request.headers['accept-language']);
    const title = trackText(lang, 'title');
    void reply.headers({
      ...pageHeaders({ csp, referrer: 'no-referrer' }),
      'x-robots-tag': 'noindex, nofollow',
      'cache-control': 'no-store',
      'content-language': lang,
    });
    reply.type('text/html; charset=utf-8');
    try {
      if (!TOKEN.test(token)) throw new AppError(404, 'not_found', 'no such link');
      const { view, stop, color } = await readTrackingPage(deps, token, lang);
      const live = renderTracking(view as TrackingView, lang, timeFormatter(lang, 'UTC'), stop);
      // The script draws the map again on every change: it reads the stop from here (the API object has no places).
      const place = stop ? ` data-stop-lat="${stop.lat}" data-stop-lng="${stop.lng}"` : '';
      const brand = brandStyle(color);
      if (brand) void reply.header('content-security-policy', brand.csp);
      const body = `${renderSender(view.sender, lang)}<h1>${escapeHtml(title)}</h1><div id="track-live" aria-live="polite"${place}>${live}</div>`;
      return reply.send(page(assets, lang, title, body, brand?.style));
    } catch (err) {
      if (!(err instanceof AppError) || (err.status !== 404 && err.status !== 410)) throw err;
      const message = trackText(lang, err.status === 410 ? 'gone' : 'notFound');
      // No script on a dead link: there is nothing to go live with.
      return reply.status(err.status).send(page(assets, lang, title, `<h1>${escapeHtml(title)}</h1><p class="track-dead">${escapeHtml(message)}</p>`).replace(/<script[^>]*><\/script>/, ''));
    }
  });
}
