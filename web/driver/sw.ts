// The driver app's service worker (/driver/sw.js, scope /driver/): it keeps the app shell — the page, its scripts,
// styles and icons, named by the build — so the app opens with no network (docs/driver-app.md "Offline"). It never
// touches /api: answers there are the server's alone (the outbox and the page's own cache handle the offline case).
// The build defines the shell's URLs and a version made of their hashes; a new build is a new worker and cache.
declare const __SHELL__: string[];
declare const __VERSION__: string;

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const PREFIX = 'tourbook-driver-shell-';
const CACHE = `${PREFIX}${__VERSION__}`;
const PAGE = '/driver/';

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(__SHELL__))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

async function fromCacheOrNetwork(request: Request, cacheKey: string | Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(cacheKey);
  if (cached) return cached;
  return fetch(request);
}

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin || url.pathname.startsWith('/api/')) return;
  // Every page of the app is the one shell; the app's router reads the path.
  if (request.mode === 'navigate' && (url.pathname === '/driver' || url.pathname.startsWith(PAGE))) {
    event.respondWith(fromCacheOrNetwork(request, PAGE));
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname === '/driver/manifest.webmanifest') event.respondWith(fromCacheOrNetwork(request, request));
});
