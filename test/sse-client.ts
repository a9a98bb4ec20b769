// A minimal text/event-stream client over node:http for the live-stream tests: frames, comments, and waits.
import http from 'node:http';

export interface SseFrame {
  id: string | null;
  event: string | null;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
}

export interface SseStream {
  status: number;
  frames: SseFrame[];
  comments: string[];
  /** Resolves when the stream ends (server closed it). */
  ended: Promise<void>;
  /** Resolves once `predicate` holds for the frames received (or rejects after `timeoutMs`). */
  waitFor(predicate: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<void>;
  waitForComment(text: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens the stream; resolves once the response head arrived and (for a 200) the server said `: ready`. */
export async function openSse(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseStream & { body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const frames: SseFrame[] = [];
      const comments: string[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      const body = '';
      let endedResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => (endedResolve = r));
      const check = () => waiters.slice().forEach((w) => w());
      const stream = {
        status: res.statusCode ?? 0,
        frames,
        comments,
        ended,
        body,
        waitFor(predicate: (f: SseFrame[]) => boolean, timeoutMs = 5_000) {
          return new Promise<void>((ok, fail) => {
            const timer = setTimeout(() => fail(new Error(`timed out; frames: ${JSON.stringify(frames.map((f) => f.event))}`)), timeoutMs);
            const waiter = () => {
              if (!predicate(frames)) return;
              clearTimeout(timer);
              waiters.splice(waiters.indexOf(waiter), 1);
              ok();
            };
            waiters.push(waiter);
            waiter();
          });
        },
        waitForComment(text: string, timeoutMs = 5_000) {
          return new Promise<void>((ok, fail) => {
            const timer = setTimeout(() => fail(new Error(`no comment "${text}"; got ${JSON.stringify(comments)}`)), timeoutMs);
            const waiter = () => {
              if (!comments.includes(text)) return;
              clearTimeout(timer);
              waiters.splice(waiters.indexOf(waiter), 1);
              ok();
            };
            waiters.push(waiter);
            waiter();
          });
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) {
          stream.body += chunk;
          return;
        }
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const frame: SseFrame = { id: null, event: null, data: undefined };
          let data: string | null = null;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('data: ')) data = (data === null ? '' : `${data}\n`) + line.slice(6);
          }
          if (data !== null) {
            frame.data = JSON.parse(data);
            frames.push(frame);
          }
          if (comments.includes('ready') && !readyResolved) {
            readyResolved = true;
            resolve(stream);
          }
          check();
        }
      });
      let readyResolved = false;
      res.on('end', () => {
        endedResolve();
        if (!readyResolved) {
          readyResolved = true;
          resolve(stream);
        }
      });
      res.on('error', () => endedResolve());
      res.on('close', () => endedResolve());
    });
    req.on('error', reject);
  });
}
