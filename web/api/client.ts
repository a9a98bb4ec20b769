// The one way pages reach the service: the typed client (clients/typescript) over the session cookie. Every call goes
// through `call`, which turns problem+json into ApiError and a missing answer into ConnectionError.
import createClient, { type Middleware } from 'openapi-fetch';
import { querySerializer, type paths } from '../../clients/typescript/src/index.ts';
import { connection } from './connection.ts';
import { ApiError, ConnectionError } from './problem.ts';

let language = 'en';
/** The pages' language, sent as Accept-Language so details and reasons come back localized. */
export const setApiLanguage = (lang: string): void => {
  language = lang;
};

const onUnauthenticated = new Set<() => void>();
/** Called when the service answers 401: the session ended (signed out elsewhere, revoked, expired). */
export const whenSignedOut = (listener: () => void): (() => void) => {
  onUnauthenticated.add(listener);
  return () => onUnauthenticated.delete(listener);
};

/** Tells the listeners the session ended; also for requests made outside the typed client (upload.ts). */
export const reportUnauthenticated = (): void => {
  for (const listener of onUnauthenticated) listener();
};

/** The language every request carries (Accept-Language). */
export const apiLanguage = (): string => language;

async function trackedFetch(request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    connection.reportLost();
    throw new ConnectionError();
  }
  // A proxy's 502/503/504 while the service restarts is a lost connection too; the service's own 503 is problem+json.
  const ours = response.headers.get('content-type')?.includes('json') ?? false;
  if (response.status >= 502 && response.status <= 504 && !ours) {
    connection.reportLost();
    throw new ConnectionError();
  }
  connection.reportAnswered();
  return response;
}

/** The language the browser's own Accept-Language gets from the service: its first English or German tag, else English. */
function browserLanguage(): string {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'de' || base === 'en') return base;
  }
  return 'en';
}

const language_: Middleware = {
  onRequest({ request }) {
    // Only a language the browser would not ask for is set: a request with no header of its own is one the driver
    // app's page can ask for ahead in its HTML and hand over here (decision 1209).
    if (language !== browserLanguage()) request.headers.set('accept-language', language);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: location.origin, querySerializer, fetch: trackedFetch, credentials: 'same-origin' });
api.use(language_);

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits a typed-client call: its data, or an ApiError with the problem's words. */
export async function call<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok) return data as T;
  const problem = error && typeof error === 'object' ? (error as Record<string, unknown>) : { detail: response.statusText };
  if (response.status === 401) reportUnauthenticated();
  throw new ApiError(response.status, problem);
}
