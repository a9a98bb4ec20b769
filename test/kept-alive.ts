// One raw kept-alive HTTP/1.1 connection: requests written byte for byte, responses read in order (Content-Length
// framed, as every API answer is). For tests of what one request leaves behind for the next on the same connection.
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface KeptAlive {
  write(bytes: string | Buffer): Promise<void>;
  /** The next response on the connection; rejects when none has arrived within `timeoutMs` or the connection ended. */
  response(timeoutMs: number): Promise<RawResponse>;
  /** Whether the server closed the connection. */
  readonly ended: boolean;
  close(): void;
}

const HEAD_END = '\r\n\r\n';

export async function keptAlive(port: number): Promise<KeptAlive> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let ended = false;
  let wake: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  // A reset after the server closed is the end of the connection here, not a test error.
  socket.on('error', () => undefined);
  socket.on('close', () => {
    ended = true;
    wake?.();
  });

  /** A whole response at the start of the buffer, taken off it, or null. */
  const take = (): RawResponse | null => {
    const headEnd = buffered.indexOf(HEAD_END);
    if (headEnd < 0) return null;
    const [statusLine = '', ...lines] = buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + HEAD_END.length;
    if (buffered.length < bodyStart + length) return null;
    const body = buffered.subarray(bodyStart, bodyStart + length).toString('utf8');
    buffered = buffered.subarray(bodyStart + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  };

  return {
    write: (bytes) => new Promise<void>((resolve, reject) => socket.write(bytes, (err) => (err ? reject(err) : resolve()))),
    async response(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = take();
        if (found) return found;
        if (ended) throw new Error('the connection ended before a response');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no response within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    },
    get ended() {
      return ended;
    },
    close: () => socket.destroy(),
  };
}
