// A local SMSC for the SMPP tests (decision 1783): the `smpp` library's own server. It answers bind_transceiver
// (ESME_RBINDFAIL for another system_id or password), submit_sm with a message_id (or the command_status a test asks
// for), enquire_link and unbind; and it sends what an SMSC sends over a bound session: delivery receipts (deliver_sm
// with esm_class 0x04 and the standard receipt text) and phones' replies (deliver_sm without receipt bits).
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import smpp from 'smpp';
import type { PDU, Session } from 'smpp';

/** One submit_sm as the SMSC took it (the text decoded by its data_coding). */
export interface Submitted {
  messageId: string | null;
  sourceAddr: string;
  sourceTon: number;
  sourceNpi: number;
  destinationAddr: string;
  destTon: number;
  destNpi: number;
  dataCoding: number;
  registeredDelivery: number;
  /** Which field carried the text. */
  field: 'short_message' | 'message_payload';
  text: string;
}

export interface SmppPeer {
  url: string;
  systemId: string;
  password: string;
  submitted: Submitted[];
  /** Binds the peer answered (refused ones included), as `ok` or the refusal. */
  binds: string[];
  /** command_statuses to answer the next submit_sm with, in order (then ESME_ROK). */
  refuseNext: number[];
  /** deliver_sm_resp command_statuses the peer got back, in order. */
  deliverAnswers: number[];
  /** A delivery receipt for `messageId` with `stat`, as the receipt text (or the TLVs). */
  receipt(messageId: string, stat: string, options?: { err?: string; tlvs?: boolean }): Promise<number>;
  /** A phone's reply over the bound session. */
  reply(from: string, text: string): Promise<number>;
  /** Cuts every bound session (the SMSC restarting). */
  drop(): void;
  bound(): number;
  close(): Promise<void>;
}

const STATES: Record<string, number> = { ENROUTE: 1, DELIVRD: 2, EXPIRED: 3, DELETED: 4, UNDELIV: 5, ACCEPTD: 6, UNKNOWN: 7, REJECTD: 8 };

const textOf = (value: unknown): string => {
  const message = value && typeof value === 'object' && 'message' in value ? (value as { message: unknown }).message : value;
  return typeof message === 'string' ? message : Buffer.isBuffer(message) ? message.toString('latin1') : '';
};

export async function startSmppPeer(): Promise<SmppPeer> {
  const systemId = 'tourbook';
  const password = 'pw123456';
  const submitted: Submitted[] = [];
  const binds: string[] = [];
  const deliverAnswers: number[] = [];
  const refuseNext: number[] = [];
  const sessions = new Set<Session>();
  const server = smpp.createServer((session) => {
    session.on('error', () => undefined); // a client that goes away mid-PDU
    session.on('bind_transceiver', (pdu: PDU) => {
      if (pdu.system_id !== systemId || pdu.password !== password) {
        binds.push('ESME_RBINDFAIL');
        session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }));
        return;
      }
      binds.push('ok');
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
      session.send(pdu.response({ system_id: 'peer-smsc' }));
    });
    session.on('submit_sm', (pdu: PDU) => {
      const status = refuseNext.shift() ?? smpp.ESME_ROK;
      const messageId = status === smpp.ESME_ROK ? randomBytes(8).toString('hex') : null;
      const payload = textOf(pdu.message_payload);
      submitted.push({
        messageId,
        sourceAddr: String(pdu.source_addr),
        sourceTon: Number(pdu.source_addr_ton),
        sourceNpi: Number(pdu.source_addr_npi),
        destinationAddr: String(pdu.destination_addr),
        destTon: Number(pdu.dest_addr_ton),
        destNpi: Number(pdu.dest_addr_npi),
        dataCoding: Number(pdu.data_coding),
        registeredDelivery: Number(pdu.registered_delivery),
        field: payload ? 'message_payload' : 'short_message',
        text: payload || textOf(pdu.short_message),
      });
      session.send(pdu.response(messageId ? { message_id: messageId } : { command_status: status }));
    });
    session.on('enquire_link', (pdu: PDU) => void session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const deliver = (options: Record<string, unknown>) =>
    new Promise<number>((resolve, reject) => {
      // The newest bound session: an SMSC delivers on one of the account's sessions, and the last one bound is live.
      const session = [...sessions].at(-1);
      if (!session) return reject(new Error('SMPP peer: no bound session to deliver on'));
      const timer = setTimeout(() => reject(new Error('SMPP peer: no deliver_sm_resp within 10 s')), 10_000);
      session.deliver_sm(options, (resp) => {
        clearTimeout(timer);
        deliverAnswers.push(resp.command_status);
        resolve(resp.command_status);
      });
    });

  return {
    url: `smpp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    systemId,
    password,
    submitted,
    binds,
    refuseNext,
    deliverAnswers,
    receipt(messageId, stat, options = {}) {
      const err = options.err ?? (stat === 'DELIVRD' ? '000' : '001');
      const text = `id:${messageId} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:2611221400 done date:2611221401 stat:${stat} err:${err} text:Hello`;
      const tlvs = options.tlvs ? { receipted_message_id: messageId, message_state: STATES[stat] ?? 7 } : {};
      return deliver({ source_addr: '4915112345678', destination_addr: 'Tourbook', esm_class: 0x04, data_coding: 0, short_message: options.tlvs ? '' : text, ...tlvs });
    },
    reply(from, text) {
      return deliver({ source_addr_ton: 1, source_addr_npi: 1, source_addr: from.replace(/^\+/, ''), destination_addr: 'Tourbook', esm_class: 0, data_coding: 0, short_message: text });
    },
    drop() {
      for (const session of sessions) session.destroy();
    },
    bound: () => sessions.size,
    async close() {
      for (const session of server.sessions) session.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
