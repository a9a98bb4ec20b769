// The pages under /docs in a real browser (Debian's chromium through playwright-core): they load nothing from another
// host and break none of their own CSP (decision 0155). Fails, never skips, without /usr/bin/chromium: .ci/run
// installs it.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

let t: TestApp;
let browser: Browser;
let base: string;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

interface Visit {
  page: Page;
  /** Every request the page made, as URLs. */
  requests: string[];
  /** CSP violations the page reported (securitypolicyviolation events): directive, blocked URI, source file. */
  violations: string[];
  /** The page's Content-Security-Policy header. */
  csp: string;
}

async function visit(path: string, ready: (page: Page) => Promise<unknown>): Promise<Visit> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  // Injected by the browser's debugging protocol, outside the page's CSP.
  await page.exposeFunction('__reportViolation', (text: string) => violations.push(text));
  // Page code as text: this file is type-checked without the DOM's types.
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => window.__reportViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`));",
  });
  const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
  await ready(page);
  await page.waitForLoadState('networkidle');
  return { page, requests, violations, csp: (await response?.allHeaders())?.['content-security-policy'] ?? '' };
}

const otherHosts = (requests: string[]) => requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).hostname !== '127.0.0.1');

describe('/docs in a browser', () => {
  it('renders the API reference without a request to any other host or a CSP violation', async () => {
    const { page, requests, violations, csp } = await visit('/docs', (p) => p.getByText('Tourbook API').first().waitFor({ timeout: 20_000 }));
    try {
      expect(requests).toContain(`${base}/openapi.json`);
      expect(csp).toMatch(/^default-src 'none'; script-src 'self' 'sha256-[^']+'; /);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);
      // Scalar asks for its fonts and its registry only after the document is shown: give it the time it took.
      await page.waitForTimeout(1_500);
      expect(otherHosts(requests)).toEqual([]);
      // The one refusal allowed: Scalar's bundled zod probes `new Function("")` once, inside a try, to choose its
      // validator and falls back when the CSP refuses (decision 0155) — eval stays forbidden.
      const zodProbe = `script-src eval ${base}/docs/js/scalar.js`;
      expect(violations.filter((violation) => violation !== zodProbe)).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('renders the API guide as a page whose anchors and stylesheet work, within its CSP', async () => {
    const { page, requests, violations, csp } = await visit('/docs/guide#failure-options', (p) => p.locator('h1').waitFor());
    try {
      expect(csp).toBe("default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      expect(await page.locator('h1').textContent()).toContain('Tourbook API guide');
      expect(requests).toContain(`${base}/docs/guide.css`);
      // The stylesheet applied: the page's main column is narrowed by guide.css.
      expect(await page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")).not.toBe('none');
      // The deprecation table's row anchor and GitHub-style heading ids resolve.
      expect(await page.evaluate("document.getElementById('failure-options')?.tagName")).toBe('A');
      await page.getByRole('link', { name: 'Failed stops' }).first().click();
      expect(new URL(page.url()).hash).toBe('#failed-stops');
      expect(await page.evaluate("document.getElementById('failed-stops')?.tagName")).toBe('H2');
      expect(otherHosts(requests)).toEqual([]);
      expect(violations).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('follows a deprecation Link from the old markdown address to the guide page, fragment kept', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/docs/api-guide#package-failure-reasons`);
      expect(page.url()).toBe(`${base}/docs/guide#package-failure-reasons`);
    } finally {
      await page.close();
    }
  }, 30_000);
});
