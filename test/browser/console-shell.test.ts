// The console's frame in a real browser: served with its security headers, assets immutable and precompressed, the
// sign-in page in English and German, accessible, talking to no other host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openPage, PHONE, screenshot, startBrowserApp, type BrowserApp } from './harness.ts';

describe('the console shell', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => app?.close());

  it('serves /console with a strict CSP and its assets immutable, precompressed, and unknown assets as 404', async () => {
    const page = await fetch(`${app.url}/console/bookings?status=completed`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const html = await page.text();
    const script = /src="(\/assets\/console-[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();

    const brotli = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // fetch decodes the body; the header says which copy was sent.
    expect(brotli.headers.get('content-encoding')).toBe('br');
    const gzip = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe(await brotli.text());
    const plain = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();

    const missing = await fetch(`${app.url}/assets/console-NOPE.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    const traversal = await fetch(`${app.url}/assets/..%2Fpages.json`);
    expect(traversal.status).toBe(404);
  });

  it('redirects / to the console', async () => {
    const root = await fetch(`${app.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console');
  });

  it('shows the sign-in page in the browser language, accessible, with no request to another host', async () => {
    for (const [locale, viewport, button] of [
      ['en-GB', undefined, 'Sign in'],
      ['de-DE', PHONE, 'Anmelden'],
    ] as const) {
      const watched = await openPage(app, { locale, ...(viewport ? { viewport } : {}) });
      await watched.page.goto(`${app.url}/console`);
      await expect.poll(() => watched.page.getByRole('button', { name: button }).count()).toBe(1);
      expect(await watched.page.getAttribute('html', 'lang')).toBe(locale.slice(0, 2));
      expect(await axeViolations(watched.page)).toEqual([]);
      await screenshot(watched.page, `console-sign-in-${locale}`);
      watched.expectClean();
      await watched.context.close();
    }
  });
});
