// The human-readable pages under /docs: the API reference (Scalar, over /openapi.json) and the API guide rendered at
// build time. Both are self-contained: nothing is loaded from another host, and a CSP header says so (decision 0155).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import scalarReference from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/**
 * The guide page loads only its stylesheet. `frame-ancestors 'none'`: no other site frames the docs (clickjacking).
 */
export const GUIDE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The reference page runs Scalar's bundle, served here, and one inline call that starts it (allowed by its hash).
 * Scalar adds its styles at run time and shows schemas' data: images, hence 'unsafe-inline' for styles and data: for
 * images and fonts; every fetch goes to this origin (the OpenAPI document, and "Test request" calls to the API).
 */
const referenceCsp = (scriptHashes: string[]): string =>
  [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.map((hash) => `'sha256-${hash}'`).join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

/**
 * Scalar's options that keep the reference on this host, for @scalar/fastify-api-reference 1.46 (a real browser found
 * fonts.scalar.com and proxy.scalar.com calls; test/browser/docs.test.ts keeps it that way): the page's own system
 * fonts, no "Agent" chat (it searched a registry through Scalar's proxy), no telemetry, no toolbar (its "share" button
 * uploads the document to Scalar), and no proxy for "Test request" (the API is this origin).
 */
const REFERENCE_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  agent: { disabled: true },
  telemetry: false,
  showToolbar: 'never',
  proxyUrl: '',
} as const;

/** dist/docs/ (the build's rendered guide) from src/http/ or from a bundle chunk in dist/chunks/. */
function renderedDocsDir(): string | null {
  for (let dir = import.meta.dirname, i = 0; i < 4; i++, dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', 'docs');
    if (fs.existsSync(path.join(candidate, 'guide.html'))) return candidate;
  }
  return null;
}

const inlineScriptHashes = (html: string): string[] =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => crypto.createHash('sha256').update(match[1]!).digest('base64'));

export const docsPages = (): FastifyPluginAsync => async (app: FastifyInstance) => {
  const docs = renderedDocsDir();
  const notInstalled = 'The API guide is not rendered in this installation: run `npm run build`.';
  app.get('/docs/guide', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-security-policy', GUIDE_CSP);
    if (!docs) return reply.status(404).type('text/plain; charset=utf-8').send(notInstalled);
    return reply.type('text/html; charset=utf-8').send(fs.readFileSync(path.join(docs, 'guide.html')));
  });
  app.get('/docs/guide.css', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    if (!docs) return reply.status(404).type('text/plain; charset=utf-8').send(notInstalled);
    return reply.type('text/css; charset=utf-8').send(fs.readFileSync(path.join(docs, 'guide.css')));
  });
  // Where the guide was served as markdown before: Link headers already sent keep leading to the page (a redirect
  // keeps the #fragment).
  app.get('/docs/api-guide', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs/guide', 301));

  // The reference's HTML carries Scalar's start-up call inline: its hash goes into the CSP, computed from the page sent.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/docs') || request.url.startsWith('/docs/guide')) return payload;
    const scripts = typeof payload === 'string' && /^text\/html/.test(String(reply.getHeader('content-type'))) ? inlineScriptHashes(payload) : [];
    reply.header('content-security-policy', referenceCsp(scripts));
    return payload;
  });
  await app.register(scalarReference, { routePrefix: '/docs', configuration: REFERENCE_CONFIGURATION });
};
