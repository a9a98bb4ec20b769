// What other modules use of SMS (decision 1760): the configured gateway (SMS_PROVIDER), the text's coding and segments.
import type { Config } from '../config.ts';
import type { SmsGateway } from '../seams/sms.ts';
import { kannelGateway } from './kannel.ts';

export { smsEncoding, type SmsCoding, type SmsEncoding } from './encoding.ts';
export type { SmsGateway, SmsOutgoing, SmsSendResult } from '../seams/sms.ts';

/** The gateway SMS_PROVIDER names, or null when none is configured (no SMS is sent). */
export function smsGatewayFor(config: Pick<Config, 'sms'>): SmsGateway | null {
  const sms = config.sms;
  if (!sms) return null;
  return kannelGateway({ url: sms.url, username: sms.username, password: sms.password, timeoutMs: sms.timeoutMs });
}
