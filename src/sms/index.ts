// What other modules use of SMS (decisions 1760, 1782, 1783): the configured gateway (SMS_PROVIDER), the Twilio
// callbacks' signature check, the SMPP sessions' shutdown, the text's coding and segments.
import type { Config } from '../config.ts';
import type { SmsGateway } from '../seams/sms.ts';
import { kannelGateway } from './kannel.ts';
import { closeSmppSessions, smppGateway } from './smpp.ts';
import { twilioGateway } from './twilio.ts';

export { smsEncoding, type SmsCoding, type SmsEncoding } from './encoding.ts';
export { twilioSignature, twilioSignatureValid } from './twilio.ts';
export type { SmsGateway, SmsOutgoing, SmsProvider, SmsSendResult } from '../seams/sms.ts';

/** Where our own callback routes are: the SMPP session hands its receipts and replies to them (decision 1783). */
const ourBase = (config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string => (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');

/** The gateway SMS_PROVIDER names, or null when none is configured (no SMS is sent). */
export function smsGatewayFor(config: Pick<Config, 'sms' | 'publicUrl' | 'host' | 'port'>): SmsGateway | null {
  const sms = config.sms;
  if (!sms) return null;
  switch (sms.provider) {
    case 'kannel':
      return kannelGateway({ url: sms.url, username: sms.username, password: sms.password, timeoutMs: sms.timeoutMs });
    case 'twilio':
      // The configuration guarantees both (config.ts smsOf).
      return twilioGateway({ url: sms.url, accountSid: sms.username ?? '', authToken: sms.password ?? '', timeoutMs: sms.timeoutMs });
    case 'smpp': {
      const secret = sms.callbackSecret;
      const base = ourBase(config);
      const bridge = secret ? { statusUrl: `${base}/api/sms/smpp/status?secret=${secret}`, inboundUrl: `${base}/api/sms/smpp/inbound?secret=${secret}` } : null;
      return smppGateway({ url: sms.url, systemId: sms.username, password: sms.password, timeoutMs: sms.timeoutMs, bridge });
    }
  }
}

/** Closes what a gateway keeps open between SMS — the SMPP sessions (unbound first) — at the process's shutdown. */
export async function closeSmsGateways(): Promise<void> {
  await closeSmppSessions();
}
