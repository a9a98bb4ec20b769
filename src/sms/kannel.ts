// The Kannel adapter (decision 1760): an SMS is one GET of smsbox's `sendsms` with the account, the sender, the number,
// the text in UTF-8 (coding 2 — UCS-2 — when GSM-7 cannot carry it) and a DLR URL with Kannel's %d (type) and %A
// (the carrier's answer) escapes. Kannel answers 202 "0: Accepted for delivery" or "3: Queued for later delivery";
// anything else — another status, a timeout, no connection — is a refusal with its words as the reason.
import type { SmsGateway, SmsOutgoing, SmsSendResult } from '../seams/sms.ts';
import { smsEncoding } from './encoding.ts';

export interface KannelConfig {
  url: string;
  username: string | null;
  password: string | null;
  timeoutMs: number;
}

/** All five DLR types: delivered (1), not delivered (2), queued on the SMSC (4), accepted by it (8), refused by it (16). */
const DLR_MASK = '31';

export function kannelGateway(config: KannelConfig): SmsGateway {
  return {
    provider: 'kannel',
    async send(message: SmsOutgoing): Promise<SmsSendResult> {
      const url = new URL(config.url);
      const params = url.searchParams;
      if (config.username !== null) params.set('username', config.username);
      if (config.password !== null) params.set('password', config.password);
      params.set('from', message.from);
      params.set('to', message.to);
      params.set('text', message.text);
      params.set('charset', 'UTF-8');
      params.set('coding', smsEncoding(message.text).coding === 'ucs2' ? '2' : '0');
      if (message.statusUrl) {
        params.set('dlr-mask', DLR_MASK);
        params.set('dlr-url', message.statusUrl);
      }
      let status: number;
      let body: string;
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(config.timeoutMs) });
        status = res.status;
        body = (await res.text()).trim().slice(0, 500);
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        return { accepted: false, reason: timedOut ? `Kannel did not answer within ${config.timeoutMs} ms` : `Kannel unreachable: ${causeOf(err)}` };
      }
      // Kannel's own codes: 0 accepted, 3 queued (its SMSC link is down; it sends when it returns) — both are ours no more.
      if (status === 202 && /^[03]:/.test(body)) return { accepted: true, providerRef: null };
      return { accepted: false, reason: `Kannel answered ${status}${body ? `: ${body}` : ''}` };
    },
  };
}

function causeOf(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
