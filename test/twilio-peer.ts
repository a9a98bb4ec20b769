// A local Twilio for the SMS tests (decision 1782): a node:http server answering the Messages resource as Twilio's REST
// docs describe it — 201 with the message (sid "SM" + 32 hex), 401 {code 20003} for a wrong Account SID or Auth Token,
// 400 {code 21211} for a To number it cannot send to (its magic +15005550001, or one the test names) — and sending
// status callbacks and inbound messages the way Twilio does: a form POST signed with X-Twilio-Signature (HMAC-SHA1 with
// the Auth Token over the URL and the sorted parameters, base64). The signature is computed here on its own, not with
// the code under test.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Messages request the peer took. */
export interface TwilioRequest {
  sid: string | null;
  to: string;
  from: string;
  body: string;
  statusCallback: string | null;
  authorization: string | undefined;
}

/** How a callback is signed: as Twilio does, not at all, or with another token. */
export type Signing = 'valid' | 'none' | 'wrong';

export interface TwilioPeer {
  /** The API base (SMS_URL). */
  url: string;
  accountSid: string;
  authToken: string;
  requests: TwilioRequest[];
  /** Numbers answered 400 / 21211 besides Twilio's magic invalid number. */
  invalidNumbers: Set<string>;
  /** Twilio's status callback for an accepted message, to its StatusCallback; answers our HTTP status. */
  statusCallback(sid: string, status: string, options?: { errorCode?: string; signing?: Signing }): Promise<{ status: number; body: string }>;
  /** An SMS from a phone to our number, posted to `url` (the number's messaging webhook); answers our status and body. */
  inbound(url: string, from: string, body: string, options?: { signing?: Signing }): Promise<{ status: number; body: string; contentType: string | null }>;
  close(): Promise<void>;
}

/** Twilio's magic test number that is "not a valid phone number". */
export const TWILIO_INVALID_NUMBER = '+15005550001';

function sign(token: string, url: string, params: URLSearchParams): string {
  const data = url + [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => k + v).join('');
  return createHmac('sha1', token).update(data, 'utf8').digest('base64');
}

const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

export async function startTwilioPeer(): Promise<TwilioPeer> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const requests: TwilioRequest[] = [];
  const invalidNumbers = new Set<string>();
  const accepted = new Map<string, TwilioRequest>();
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://peer').pathname;
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
      if (req.method !== 'POST' || !match) return json(res, 404, { code: 20404, message: `The requested resource ${path} was not found`, more_info: 'https://www.twilio.com/docs/errors/20404', status: 404 });
      const form = new URLSearchParams(raw);
      const request: TwilioRequest = { sid: null, to: form.get('To') ?? '', from: form.get('From') ?? '', body: form.get('Body') ?? '', statusCallback: form.get('StatusCallback'), authorization: req.headers.authorization };
      requests.push(request);
      if (req.headers.authorization !== expectedAuth || match[1] !== accountSid) {
        return json(res, 401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
      }
      if (request.to === TWILIO_INVALID_NUMBER || invalidNumbers.has(request.to) || !/^\+[1-9][0-9]{6,14}$/.test(request.to)) {
        return json(res, 400, { code: 21211, message: `The 'To' number ${request.to} is not a valid phone number.`, more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 });
      }
      const sid = `SM${randomBytes(16).toString('hex')}`;
      request.sid = sid;
      accepted.set(sid, request);
      const now = new Date().toUTCString();
      json(res, 201, {
        sid,
        account_sid: accountSid,
        to: request.to,
        from: request.from,
        body: request.body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        date_created: now,
        date_updated: now,
        date_sent: null,
        error_code: null,
        error_message: null,
        price: null,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const post = async (url: string, form: URLSearchParams, signing: Signing) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', 'user-agent': 'TwilioProxy/1.1' };
    if (signing !== 'none') headers['x-twilio-signature'] = sign(signing === 'valid' ? authToken : `${authToken}x`, url, form);
    const res = await fetch(url, { method: 'POST', headers, body: form.toString() });
    return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') };
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accountSid,
    authToken,
    requests,
    invalidNumbers,
    async statusCallback(sid, status, options = {}) {
      const request = accepted.get(sid);
      if (!request?.statusCallback) throw new Error(`Twilio peer: no accepted message ${sid} with a StatusCallback`);
      // The fields Twilio posts to a StatusCallback for an SMS.
      const form = new URLSearchParams({ AccountSid: accountSid, ApiVersion: '2010-04-01', From: request.from, MessageSid: sid, MessageStatus: status, SmsSid: sid, SmsStatus: status, To: request.to });
      if (options.errorCode) form.set('ErrorCode', options.errorCode);
      return post(request.statusCallback, form, options.signing ?? 'valid');
    },
    async inbound(url, from, body, options = {}) {
      const sid = `SM${randomBytes(16).toString('hex')}`;
      const form = new URLSearchParams({ AccountSid: accountSid, ApiVersion: '2010-04-01', Body: body, From: from, MessageSid: sid, NumMedia: '0', NumSegments: '1', SmsMessageSid: sid, SmsSid: sid, SmsStatus: 'received', To: '+15005550006' });
      return post(url, form, options.signing ?? 'valid');
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
