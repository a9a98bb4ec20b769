// Verifies a Tourbook webhook delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`
// with `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) with Web Crypto, so it runs in Node.js 20+ and in browsers.

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds (default 300): older deliveries are refused as replays. */
  toleranceSeconds?: number;
  /** The current time in milliseconds (default `Date.now()`). */
  now?: number;
}

const PREFIX = 'whsec_';
const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Compares without stopping at the first difference. */
function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Whether `body` (the raw request body, exactly as received) was signed with `secret` (`whsec_…`, from creating or
 * rotating the subscription) and sent within the tolerance. During a rotation a delivery carries one signature per
 * secret; either verifies.
 */
export async function verifyWebhook(secret: string, headers: WebhookHeaders, body: string, options: VerifyOptions = {}): Promise<boolean> {
  const timestamp = Number(headers['webhook-timestamp']);
  const now = options.now ?? Date.now();
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const raw = fromBase64(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = toBase64(await crypto.subtle.sign('HMAC', key, encoder.encode(`${headers['webhook-id']}.${timestamp}.${body}`)));
  return headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    return version === 'v1' && signature !== undefined && equal(signature, mac);
  });
}
