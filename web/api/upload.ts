// Multipart uploads with progress (fetch reports none for request bodies, so this one path uses XMLHttpRequest):
// the same cookie, language, connection tracking and problem+json → ApiError as every other call (client.ts).
import { apiLanguage, reportUnauthenticated } from './client.ts';
import { connection } from './connection.ts';
import { ApiError, ConnectionError } from './problem.ts';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** POSTs `form` to `path` (below this origin) and resolves with the JSON answer, or rejects like `call()`. */
export function upload<T>(path: string, form: FormData, onProgress?: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', new URL(path, location.origin).toString());
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', apiLanguage());
    xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    const lost = () => {
      connection.reportLost();
      reject(new ConnectionError());
    };
    xhr.onerror = lost;
    xhr.ontimeout = lost;
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    xhr.onload = () => {
      const ours = (xhr.getResponseHeader('content-type') ?? '').includes('json');
      // As in client.ts: a proxy's 502–504 without our problem+json is a lost connection, not an answer.
      if (xhr.status >= 502 && xhr.status <= 504 && !ours) return lost();
      connection.reportAnswered();
      let body: unknown = null;
      try {
        body = ours && xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      if (xhr.status === 401) reportUnauthenticated();
      const problem = body && typeof body === 'object' ? (body as Record<string, unknown>) : { detail: xhr.statusText || `HTTP ${xhr.status}` };
      reject(new ApiError(xhr.status, problem));
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
