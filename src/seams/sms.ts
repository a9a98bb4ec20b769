// The SMS gateway seam (contract §18, decision 1760): what the recipient notifications hand an SMS to, whatever the
// provider. Plain shapes only; the adapters live in src/sms/ (Kannel's sendsms, Twilio's REST API, an SMPP session),
// one file each.

export interface SmsOutgoing {
  /** Our message id: a gateway that calls back with a receipt names the message by it. */
  id: string;
  tenantId: string;
  /** E.164. */
  to: string;
  /** The sender: a number or an alphanumeric id of at most 11 characters. */
  from: string;
  text: string;
  /**
   * Where the gateway reports delivery (its receipts), or null for none. An SMPP session gets its receipts over the
   * session itself: for it, set means "ask for receipts" (decision 1783).
   */
  statusUrl: string | null;
}

/** What the gateway answered: accepted (with its own id, if it gives one), or refused with its reason in words. */
export type SmsSendResult = { accepted: true; providerRef: string | null } | { accepted: false; reason: string };

export type SmsProvider = 'kannel' | 'smpp' | 'twilio';

export interface SmsGateway {
  readonly provider: SmsProvider;
  /** Never throws for a refusal, an unreachable gateway or a timeout: they are answers (`accepted: false`). */
  send(message: SmsOutgoing): Promise<SmsSendResult>;
}
