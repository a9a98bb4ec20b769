// Standard Webhooks signing: `whsec_` secrets and `v1,<base64 HMAC-SHA256("id.timestamp.body")>` signatures.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** 32 random bytes: above the 24-byte floor of the Standard Webhooks spec. */
export const generateSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

export function sign(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** During a rotation both secrets sign: receivers holding either one verify (space-separated list). */
export const signatureHeader = (secrets: string[], messageId: string, timestampSeconds: number, body: string): string =>
  secrets.map((secret) => sign(secret, messageId, timestampSeconds, body)).join(' ');
