// The console's HTML as the server sends it: the offline map by default; an operator's tile server (MAP_TILE_URL)
// reaches the page in a meta tag and joins the CSP, and nothing else does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';

describe('the console page and MAP_TILE_URL', () => {
  let plain: TestApp;
  let tiled: TestApp;
  beforeAll(async () => {
    plain = await buildTestApp();
    tiled = await buildTestApp({ mapTileUrl: 'https://tiles.example.org/osm/{z}/{x}/{y}.png' });
  });
  afterAll(async () => Promise.all([plain?.close(), tiled?.close()]));

  it('names no tile server and allows no other host without MAP_TILE_URL', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/console/map' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('tourbook-map-tiles');
    expect(res.headers['content-security-policy']).toContain("connect-src 'self';");
    expect(res.headers['content-security-policy']).toContain("img-src 'self' data: blob:;");
  });

  it('passes the tile template to the page and allows exactly its origin for tiles', async () => {
    const res = await tiled.app.inject({ method: 'GET', url: '/console/map' });
    expect(res.body).toContain('<meta name="tourbook-map-tiles" content="https://tiles.example.org/osm/{z}/{x}/{y}.png">');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' https://tiles.example.org;");
    expect(csp).toContain("img-src 'self' data: blob: https://tiles.example.org;");
    expect(csp).toContain("script-src 'self';");
  });
});
