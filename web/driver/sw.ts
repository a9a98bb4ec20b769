// The driver app's service worker (/driver/sw.js, scope /driver/): it keeps the app shell — the page, its scripts,
// styles and icons, named by the build — so the app opens with no network (docs/driver-app.md "Offline"). It never
// touches /api: answers there are the server's alone (the outbox and the page's own cache handle the offline case).
// The build defines the shell's URLs and a version made of their hashes; a new build is a new worker and cache.
// The map (decision 1720): the tour page names the tiles, TileJSON and glyphs around today's tour ('keep-map'); they
// are kept in a cache of their own, bounded in bytes, replaced when the tour's stops change; MapLibre's lazily loaded
// chunk and worker script are kept as they load (hashed /assets/ names, immutable), so the map draws offline.
declare const __SHELL__: string[];
declare const __VERSION__: string;

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerMessageEvent extends ExtendableEvent {
  data: unknown;
}
interface WorkerScope {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: WorkerMessageEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const PREFIX = 'tourbook-driver-shell-';
const CACHE = `${PREFIX}${__VERSION__}`;
const PAGE = '/driver/';
const MAP_PREFIX = 'tourbook-driver-map-';
/** The kept map's size bound: a dense city's tiles at five zooms stay well under it (docs/driver-app.md "Offline"). */
const MAP_BYTES = 30 * 1024 * 1024;
const MAP_KEPT = '/driver/__map-kept';

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
      // The kept map outlives a new build (its cache is named by the tour, not the build).
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith(PREFIX) && !key.startsWith(MAP_PREFIX) && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

async function fromCacheOrNetwork(request: Request, cacheKey: string | Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(cacheKey);
  if (cached) return cached;
  return fetch(request);
}

/** Hashed assets never change under their name: kept the first time they load (the map's lazy chunk among them). */
async function keptAsset(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** A map file: the kept copy first (a basement's dead connection would leave the map blank while it times out). */
async function mapFile(request: Request, networkFirst: boolean): Promise<Response> {
  const kept = () => caches.keys().then(async (keys) => {
    for (const key of keys.filter((k) => k.startsWith(MAP_PREFIX))) {
      const hit = await (await caches.open(key)).match(request, { ignoreVary: true, ignoreSearch: true });
      if (hit) return hit;
    }
    return undefined;
  });
  if (networkFirst) return fetch(request).catch(async (err: unknown) => (await kept()) ?? Promise.reject(err));
  return (await kept()) ?? fetch(request);
}

/** Keeps the files the page named under `key` (the tour and its stops), reusing what the previous set already holds. */
async function keepMap(key: string, urls: string[]): Promise<void> {
  const name = `${MAP_PREFIX}${key}`;
  const keys = await caches.keys();
  if (keys.includes(name) && (await (await caches.open(name)).match(MAP_KEPT))) return;
  const cache = await caches.open(name);
  let bytes = 0;
  const queue = [...urls];
  const next = async (): Promise<void> => {
    for (let url = queue.shift(); url !== undefined && bytes < MAP_BYTES; url = queue.shift()) {
      const previous = await mapFile(new Request(url), false).catch(() => null);
      if (!previous?.ok) continue;
      const body = await previous.arrayBuffer();
      bytes += body.byteLength;
      if (bytes > MAP_BYTES) break;
      // The body is decoded already: kept without the encoding and length it travelled with.
      const headers = new Headers(previous.headers);
      headers.delete('content-encoding');
      headers.delete('content-length');
      await cache.put(url, new Response(body, { headers }));
    }
  };
  // Four at a time: the app's own requests stay ahead of the kept map's.
  await Promise.all([next(), next(), next(), next()]);
  await cache.put(MAP_KEPT, new Response(JSON.stringify({ key, files: urls.length, bytes }), { headers: { 'content-type': 'application/json' } }));
  await Promise.all(keys.filter((k) => k.startsWith(MAP_PREFIX) && k !== name).map((k) => caches.delete(k)));
}

worker.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; key?: unknown; urls?: unknown } | null;
  if (data?.type !== 'keep-map' || typeof data.key !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(data.key) || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter((url): url is string => typeof url === 'string' && url.startsWith('/tiles/')).slice(0, 2000);
  event.waitUntil(keepMap(data.key, urls));
});

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
  if (url.pathname.startsWith('/tiles/')) {
    // What the tiles cover changes with an import: asked for first, the kept copy when there is no network.
    event.respondWith(mapFile(request, url.pathname === '/tiles/tiles.json'));
    return;
  }
  if (url.pathname.startsWith('/assets/')) event.respondWith(keptAsset(request));
  else if (url.pathname === '/driver/manifest.webmanifest') event.respondWith(fromCacheOrNetwork(request, request));
});
