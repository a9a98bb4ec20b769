// The SMPP adapter (decision 1783): one bound transceiver session per process and SMSC, opened at the first SMS and
// bound again with backoff after a drop; an SMS is one submit_sm (message_payload past one segment), accepted with the
// SMSC's message_id. Receipts and replies arrive on the same session as deliver_sm: each is handed to our own callback
// routes (the "SMPP bridge", SMS_CALLBACK_SECRET in the URL) and answered once they took it.
import smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import type { SmsGateway, SmsOutgoing, SmsSendResult } from '../seams/sms.ts';
import { smsEncoding } from './encoding.ts';

export interface SmppConfig {
  /** smpp://host:port */
  url: string;
  systemId: string | null;
  password: string | null;
  timeoutMs: number;
  /** Our routes a deliver_sm goes to; null (no SMS_CALLBACK_SECRET): replies are acknowledged and not acted on. */
  bridge: { statusUrl: string; inboundUrl: string } | null;
}

/** What a deliver_sm carries, read: a delivery receipt, a phone's reply, or neither (an SME acknowledgement). */
export type SmppDelivery = { kind: 'receipt'; messageId: string; stat: string; err: string | null } | { kind: 'inbound'; from: string; text: string } | { kind: 'other' };

/** Re-binding after a drop: 0.5 s, 1 s, 2 s, … at most a minute apart, until one holds. */
const REBIND_FIRST_MS = 500;
const REBIND_MAX_MS = 60_000;
/** SMPP's keep-alive: an idle link through a NAT or a firewall is otherwise cut without a word. */
const ENQUIRE_LINK_MS = 30_000;
/** esm_class's message type bits for an SMSC delivery receipt (0x04) and an intermediate notification (0x20). */
const RECEIPT_BITS = 0x04 | 0x20;
/** esm_class's SME acknowledgements (0x08, 0x10): neither a receipt nor a reply. */
const ACK_BITS = 0x08 | 0x10;
/** SMPP 3.4's message_state values, named as the receipt text's `stat:` names them. */
const MESSAGE_STATES = ['SCHEDULED', 'ENROUTE', 'DELIVRD', 'EXPIRED', 'DELETED', 'UNDELIV', 'ACCEPTD', 'UNKNOWN', 'REJECTD', 'SKIPPED'];

const STATUS_NAMES = new Map(Object.entries(smpp.errors).map(([name, id]) => [id, name]));
/** An SMPP command_status in words: its name and number, e.g. "ESME_RINVDSTADR (0x0000000B)". */
export const smppStatusName = (status: number): string => `${STATUS_NAMES.get(status) ?? 'unknown status'} (0x${status.toString(16).toUpperCase().padStart(8, '0')})`;

interface Link {
  send(message: SmsOutgoing): Promise<SmsSendResult>;
  close(): Promise<void>;
}

/** The process's sessions, one per SMSC account: every send job of the worker shares it (decision 1783). */
const links = new Map<string, Link>();

export function smppGateway(config: SmppConfig): SmsGateway {
  const key = JSON.stringify(config);
  let link = links.get(key);
  if (!link) links.set(key, (link = openLink(config, () => links.delete(key))));
  const shared = link;
  return { provider: 'smpp', send: (message) => shared.send(message) };
}

/** Unbinds and closes every session (the process's shutdown). */
export async function closeSmppSessions(): Promise<void> {
  await Promise.all([...links.values()].map((link) => link.close()));
  links.clear();
}

function openLink(config: SmppConfig, forget: () => void): Link {
  const target = new URL(config.url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || 2775);
  let session: Session | null = null;
  let binding: Promise<Session> | null = null;
  let retry: { timer: NodeJS.Timeout; at: number } | null = null;
  let failures = 0;
  let lastError = 'not bound yet';
  let closed = false;

  const scheduleRebind = () => {
    if (closed || retry) return;
    const delay = Math.min(REBIND_MAX_MS, REBIND_FIRST_MS * 2 ** failures);
    failures += 1;
    const timer = setTimeout(() => {
      retry = null;
      void bind().catch(() => undefined); // a failure schedules the next attempt
    }, delay);
    timer.unref();
    retry = { timer, at: Date.now() + delay };
  };

  const bind = (): Promise<Session> => {
    binding ??= new Promise<Session>((resolve, reject) => {
      const s = smpp.connect({ host, port });
      let settled = false;
      const fail = (reason: string) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        lastError = reason;
        s.destroy();
        reject(new Error(reason));
      };
      const timer = setTimeout(() => fail(`no bind_transceiver_resp within ${config.timeoutMs} ms`), config.timeoutMs);
      s.on('error', (err: Error & { code?: string }) => fail(`SMSC unreachable: ${err.code ?? err.message}`));
      s.on('connect', () => {
        s.bind_transceiver({ system_id: config.systemId ?? '', password: config.password ?? '', interface_version: 0x34 }, (pdu) => {
          if (pdu.command_status !== 0) return fail(`bind_transceiver refused: ${smppStatusName(pdu.command_status)}`);
          clearTimeout(timer);
          settled = true;
          resolve(s);
        });
      });
      s.on('close', () => {
        fail('the SMSC closed the connection while binding');
        if (session === s) dropped(s, 'the SMSC closed the connection');
      });
    }).then(
      (s) => {
        binding = null;
        if (closed) {
          s.destroy();
          throw new Error('the SMPP session is closed');
        }
        session = s;
        failures = 0;
        serve(s);
        return s;
      },
      (err: unknown) => {
        binding = null;
        scheduleRebind();
        throw err;
      },
    );
    return binding;
  };

  const pending = new Map<Session, Set<(reason: string) => void>>();

  const dropped = (s: Session, reason: string) => {
    session = null;
    lastError = reason;
    for (const abort of pending.get(s) ?? []) abort(reason);
    pending.delete(s);
    scheduleRebind();
  };

  /** The bound session's other side: keep-alives, the SMSC's own enquire_link and unbind, receipts and replies. */
  const serve = (s: Session) => {
    const keepAlive = setInterval(() => s.enquire_link(), ENQUIRE_LINK_MS);
    keepAlive.unref();
    s.on('close', () => clearInterval(keepAlive));
    s.on('enquire_link', (pdu) => void s.send(pdu.response()));
    s.on('unbind', (pdu) => {
      s.send(pdu.response());
      s.close();
    });
    s.on('deliver_sm', (pdu) => {
      void handOver(config.bridge, readDeliverSm(pdu)).then((status) => s.send(pdu.response({ command_status: status })));
    });
  };

  /** The bound session, binding it when there is none; during a re-bind's backoff, waits if it comes within the timeout. */
  const bound = async (): Promise<Session | string> => {
    if (closed) return 'the SMPP session is closed';
    if (session) return session;
    if (retry) {
      const wait = retry.at - Date.now();
      if (wait > config.timeoutMs) return `not bound to the SMSC (${lastError}); binding again in ${Math.ceil(wait / 1000)} s`;
      await new Promise((r) => setTimeout(r, Math.max(0, wait) + 10));
      if (session) return session;
    }
    try {
      return await bind();
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };

  return {
    async send(message) {
      const s = await bound();
      if (typeof s === 'string') return { accepted: false, reason: `SMPP: ${s}` };
      return submit(s, message, config.timeoutMs, pending);
    },
    async close() {
      closed = true;
      forget();
      if (retry) clearTimeout(retry.timer);
      retry = null;
      const s = session ?? (await binding?.catch(() => null)) ?? null;
      session = null;
      if (!s) return;
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => s.destroy(), 1000);
        s.on('close', () => (clearTimeout(force), resolve()));
        if (!s.unbind(() => s.close())) s.destroy();
      });
    },
  };
}

/** One submit_sm and its answer; a drop or a timeout before the answer is a refusal in words. */
function submit(s: Session, message: SmsOutgoing, timeoutMs: number, pending: Map<Session, Set<(reason: string) => void>>): Promise<SmsSendResult> {
  const { coding, segments } = smsEncoding(message.text);
  const alphanumeric = !/^\+?[0-9]+$/.test(message.from);
  const pdu = {
    source_addr_ton: alphanumeric ? 5 : 1,
    source_addr_npi: alphanumeric ? 0 : 1,
    source_addr: alphanumeric ? message.from : message.from.replace(/^\+/, ''),
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: message.to.replace(/^\+/, ''),
    registered_delivery: message.statusUrl ? 1 : 0,
    data_coding: coding === 'ucs2' ? 8 : 0,
    // One segment in short_message; a longer text whole in message_payload: one message_id, one receipt (decision 1783).
    ...(segments > 1 ? { short_message: Buffer.alloc(0), message_payload: message.text } : { short_message: message.text }),
  };
  return new Promise<SmsSendResult>((resolve) => {
    const waiting = pending.get(s) ?? new Set<(reason: string) => void>();
    pending.set(s, waiting);
    const finish = (result: SmsSendResult) => {
      clearTimeout(timer);
      waiting.delete(abort);
      resolve(result);
    };
    const abort = (reason: string) => finish({ accepted: false, reason: `SMPP: ${reason} before the submit_sm_resp` });
    waiting.add(abort);
    const timer = setTimeout(() => finish({ accepted: false, reason: `SMPP: no submit_sm_resp within ${timeoutMs} ms` }), timeoutMs);
    const written = s.submit_sm(pdu, (resp) => {
      if (resp.command_status === 0) finish({ accepted: true, providerRef: String(resp.message_id ?? '') || null });
      else finish({ accepted: false, reason: `SMSC refused it: ${smppStatusName(resp.command_status)}` });
    });
    if (!written) finish({ accepted: false, reason: 'SMPP: the connection to the SMSC is not writable' });
  });
}

const textOf = (value: unknown): string => {
  const message = value && typeof value === 'object' && 'message' in value ? (value as { message: unknown }).message : value;
  return Buffer.isBuffer(message) ? message.toString('latin1') : typeof message === 'string' ? message : '';
};

/** A deliver_sm read: a receipt by its TLVs (receipted_message_id, message_state) or its standard text, or a reply. */
export function readDeliverSm(pdu: PDU): SmppDelivery {
  const esmClass = Number(pdu.esm_class ?? 0);
  const text = textOf(pdu.message_payload) || textOf(pdu.short_message);
  if (esmClass & RECEIPT_BITS) {
    const field = (name: string) => new RegExp(`\\b${name}:(\\S+)`, 'i').exec(text)?.[1] ?? null;
    const state = typeof pdu.message_state === 'number' ? MESSAGE_STATES[pdu.message_state] : undefined;
    const messageId = typeof pdu.receipted_message_id === 'string' && pdu.receipted_message_id ? pdu.receipted_message_id : field('id');
    const stat = state ?? field('stat');
    return messageId && stat ? { kind: 'receipt', messageId, stat: stat.toUpperCase(), err: field('err') } : { kind: 'other' };
  }
  if (esmClass & ACK_BITS) return { kind: 'other' };
  const source = String(pdu.source_addr ?? '');
  return { kind: 'inbound', from: Number(pdu.source_addr_ton) === 1 && !source.startsWith('+') ? `+${source}` : source, text };
}

/**
 * Posts a receipt or a reply to our route and says what the SMSC is answered: ESME_ROK once the route took it (or
 * said it is not ours: 400, 404), ESME_RX_T_APPN — "try again later" — when it could not, so the SMSC delivers it again.
 */
async function handOver(bridge: SmppConfig['bridge'], delivery: SmppDelivery): Promise<number> {
  if (delivery.kind === 'other' || !bridge) return smpp.ESME_ROK;
  const [url, body] =
    delivery.kind === 'receipt' ? [bridge.statusUrl, { message_id: delivery.messageId, stat: delivery.stat, err: delivery.err }] : [bridge.inboundUrl, { from: delivery.from, text: delivery.text }];
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return res.ok || res.status === 400 || res.status === 404 ? smpp.ESME_ROK : smpp.ESME_RX_T_APPN;
  } catch {
    return smpp.ESME_RX_T_APPN;
  }
}
