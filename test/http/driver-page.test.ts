// The driver app's HTML asks for the reads the app starts with, so they load beside its scripts (decision 1209).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';

describe('the driver page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  const preloads = (html: string) => [...html.matchAll(/<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)">/g)].map((m) => m[1]);

  it('asks ahead for the session, and for the tour a tour link opens', async () => {
    const id = '0193b2e4-0c1d-7a2e-8f30-00000000001a';
    const tourPage = await t.app.inject({ method: 'GET', url: `/driver/tours/${id}?from=home` });
    expect(tourPage.statusCode).toBe(200);
    expect(preloads(tourPage.body)).toEqual(['/api/user', `/api/hailing/tours/${id}`]);
    // The API allows the page's reads (connect-src) from its own origin only.
    expect(tourPage.headers['content-security-policy']).toContain("connect-src 'self';");
    expect(preloads((await t.app.inject({ method: 'GET', url: '/driver/' })).body)).toEqual(['/api/user']);
    expect(preloads((await t.app.inject({ method: 'GET', url: '/driver/tours/not-a-tour' })).body)).toEqual(['/api/user']);
  });
});
