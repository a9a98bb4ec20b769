// The Twilio adapter (decision 1782): an SMS is one form-encoded POST of Twilio's Messages resource with HTTP basic
// auth (Account SID, Auth Token); 201 with the message's `sid` is accepted, anything else refused with Twilio's error
// `code` and `message` (or its status and words), a timeout or no connection in words. Also the signature Twilio puts
// on its callbacks (X-Twilio-Signature), which our routes check.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SmsGateway, SmsOutgoing, SmsSendResult } from '../seams/sms.ts';

export interface TwilioConfig {
  /** The API base, e.g. https://api.twilio.com. */
  url: string;
  accountSid: string;
  authToken: string;
  timeoutMs: number;
}

export function twilioGateway(config: TwilioConfig): SmsGateway {
  const base = config.url.replace(/\/+$/, '');
  const endpoint = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    provider: 'twilio',
    async send(message: SmsOutgoing): Promise<SmsSendResult> {
      const form = new URLSearchParams({ To: message.to, From: message.from, Body: message.text });
      if (message.statusUrl) form.set('StatusCallback', message.statusUrl);
      let status: number;
      let body: string;
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form,
          signal: AbortSignal.timeout(config.timeoutMs),
        });
        status = res.status;
        body = await res.text();
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        return { accepted: false, reason: timedOut ? `Twilio did not answer within ${config.timeoutMs} ms` : `Twilio unreachable: ${causeOf(err)}` };
      }
      const json = parseJson(body);
      if (status === 201 && typeof json?.sid === 'string') return { accepted: true, providerRef: json.sid };
      // Twilio's error body: {code, message, more_info, status}.
      if (json && (typeof json.code === 'number' || typeof json.message === 'string')) {
        return { accepted: false, reason: `Twilio refused it (${status}${json.code !== undefined ? `, error ${String(json.code)}` : ''}): ${String(json.message ?? '')}`.trim() };
      }
      return { accepted: false, reason: `Twilio answered ${status}${body.trim() ? `: ${body.trim().slice(0, 300)}` : ''}` };
    },
  };
}

/**
 * Twilio's request signature: HMAC-SHA1 with the Auth Token over the full URL Twilio called, then each POST parameter's
 * name and value, sorted by name; base64.
 */
export function twilioSignature(authToken: string, url: string, params: readonly (readonly [string, string])[]): string {
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const data = url + sorted.map(([name, value]) => name + value).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether `given` is the signature of this request; in constant time (equal lengths first: base64 of SHA-1 is 28). */
export function twilioSignatureValid(authToken: string, url: string, params: readonly (readonly [string, string])[], given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function parseJson(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function causeOf(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
