// The part of npm's `smpp` (0.5) that Tourbook uses, typed by hand: the registry has no @types/smpp. A PDU is the
// library's plain object: its header, each mandatory parameter and each TLV as a property of that name.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** A decoded short_message / message_payload: the text, and the user data header when there was one. */
  export interface SmppMessage {
    message: string | Buffer;
    udh?: Buffer[];
  }

  export interface PDU {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [parameter: string]: unknown;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
  }

  export type ResponseCallback = (pdu: PDU) => void;

  export interface Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: Record<string, unknown>, callback?: ResponseCallback): boolean;
    submit_sm(options: Record<string, unknown>, callback?: ResponseCallback): boolean;
    deliver_sm(options: Record<string, unknown>, callback?: ResponseCallback): boolean;
    enquire_link(options?: Record<string, unknown> | ResponseCallback, callback?: ResponseCallback): boolean;
    unbind(options?: Record<string, unknown> | ResponseCallback, callback?: ResponseCallback): boolean;
    on(event: 'pdu' | string, listener: (pdu: PDU) => void): this;
    on(event: 'connect' | 'close', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  interface Smpp {
    connect(options: { host: string; port: number }, listener?: () => void): Session;
    createServer(listener: (session: Session) => void): Server;
    /** ESME_ROK, ESME_RBINDFAIL, … → their command_status. */
    errors: Record<string, number>;
    ESME_ROK: number;
    ESME_RBINDFAIL: number;
    ESME_RINVDSTADR: number;
    ESME_RX_T_APPN: number;
  }
  /** CommonJS: the default import is the module object (its error names are copied onto it in a loop, which Node's
   * named-export detection does not see). */
  const smpp: Smpp;
  export default smpp;
}
