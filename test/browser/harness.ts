// Browser tests: Debian's Chromium driven by playwright-core against a real listening server (buildTestApp on a
// port), with what every page must hold checked on the way — no request to another host, no CSP violation, no
// uncaught error — and helpers to sign in, run axe-core and save screenshots (test-artifacts/screenshots/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { expect, onTestFailed } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';
import type { Config } from '../../src/config.ts';

const require = createRequire(import.meta.url);
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-artifacts/screenshots');

export const LAPTOP = { width: 1366, height: 820 };
export const PHONE = { width: 390, height: 844 };

export interface BrowserApp {
  t: TestApp;
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

/** A server on a free loopback port and a browser. Fails (never skips) without Chromium: `.ci/run` installs it. */
export async function startBrowserApp(overrides: Partial<Config> = {}): Promise<BrowserApp> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install chromium (the browser tests never skip)`);
  if (!fs.existsSync(path.resolve(import.meta.dirname, '../../dist/web/pages.json'))) throw new Error('dist/web is missing: run npm run build first');
  const t = await buildTestApp(overrides);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // A browser server, not a plain launch: its process can be killed when a graceful close hangs (seen once in CI,
  // where the suite's afterAll then timed out with every test passed).
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const browser = await chromium.connect(server.wsEndpoint());
  return {
    t,
    url: `http://127.0.0.1:${port}`,
    browser,
    close: async () => {
      if (!(await within(browser.close(), CLOSE_MS))) {
        process.stderr.write(`browser harness: Chromium did not close within ${CLOSE_MS} ms; killing it\n`);
        await server.kill();
      } else await server.close();
      // Streams a page left open would hold the server's close: the browser is gone, so drop them.
      t.app.server.closeAllConnections();
      const started = Date.now();
      await t.close();
      if (Date.now() - started > CLOSE_MS) process.stderr.write(`browser harness: the test app took ${Date.now() - started} ms to close\n`);
    },
  };
}

const CLOSE_MS = 15_000;

/** True when the promise settled within `ms`; a rejection counts as settled (the process is gone either way). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Requests to any host but the server's own. */
  foreignRequests: string[];
  /** CSP violations and uncaught errors, as the console reported them. */
  problems: string[];
  /** Fails the test when the page talked to another host, broke its CSP or threw. */
  expectClean(): void;
}

export async function openPage(
  app: BrowserApp,
  options: { viewport?: { width: number; height: number }; locale?: 'en-GB' | 'de-DE'; mobile?: boolean; /** The browser's own zone (default: the machine's). */ timezoneId?: string } = {},
): Promise<WatchedPage> {
  const context = await app.browser.newContext({
    viewport: options.viewport ?? LAPTOP,
    locale: options.locale ?? 'en-GB',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const own = new URL(app.url).host;
  const foreignRequests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host !== own) foreignRequests.push(request.url());
  });
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  // A failing test leaves a picture of what the page showed (test-artifacts/screenshots/failed-*.png).
  onTestFailed(async ({ task }) => {
    if (!page.isClosed()) await screenshot(page, `failed-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`).catch(() => undefined);
  });
  return {
    page,
    context,
    foreignRequests,
    problems,
    expectClean() {
      expect(foreignRequests, 'requests to other hosts').toEqual([]);
      expect(problems, 'CSP violations and uncaught errors').toEqual([]);
    },
  };
}

export async function signIn(page: Page, url: string, email: string, password: string, path = '/console'): Promise<void> {
  await page.goto(`${url}${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in once the shell shows: the session cookie is set before the next navigation.
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 20_000 });
}

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is now; returns the serious and critical violations (each with its targets). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, not as a <script>: the page's CSP stays as it is.
  await page.evaluate(axeSource);
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
  };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A download's content: saved to a file first (the browser runs as a server, so the download has no local path). */
export async function downloadedText(download: Download): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-download-'));
  try {
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    return fs.readFileSync(file, 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
