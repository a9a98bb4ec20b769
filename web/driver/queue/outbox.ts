// The outbox (docs/driver-app.md "Offline"): every write the driver takes is stored first, with its Idempotency-Key,
// and sent in the order taken. A lost connection or a 5xx/429 keeps the action and retries later with backoff; the
// server's replay of a finished key makes a retry of a request that did arrive harmless, so each action takes effect
// once. A refusal (another 4xx) is kept, with the problem, until the driver dismisses it: nothing is dropped silently.
// Pure apart from the injected store, sender and clock, so the rules are unit-tested (outbox.test.ts).

export type ActionKind = 'claim' | 'start' | 'approach' | 'arrive' | 'complete' | 'fail';

export interface QueuedAction {
  /** The Idempotency-Key: made once when the action is taken, kept across retries and app restarts. */
  key: string;
  /** Order taken (monotonic per device). */
  seq: number;
  kind: ActionKind;
  tourId: string;
  stopId: string | null;
  method: 'POST';
  path: string;
  body: unknown;
  takenAt: number;
  attempts: number;
  /** Not sent again before this time (epoch ms). */
  notBefore: number;
  state: 'waiting' | 'refused';
  /** The server's problem+json when it refused the action (`reason_key`: why a failure outcome was not available). */
  problem: { status: number; error_code: string; detail: string; reason_key?: string } | null;
}

export interface OutboxStore {
  all(): Promise<QueuedAction[]>;
  put(action: QueuedAction): Promise<void>;
  delete(key: string): Promise<void>;
}

export type SendResult = { kind: 'done'; status: number; body: unknown } | { kind: 'retry'; retryAfterMs?: number } | { kind: 'refused'; status: number; problem: QueuedAction['problem'] };

export type Sender = (action: QueuedAction) => Promise<SendResult>;

/** An action the device could not store (IndexedDB refused it): it was never taken, and the driver must know. */
export interface NotKept {
  id: number;
  kind: ActionKind;
  message: string;
}

export interface OutboxOptions {
  now: () => number;
  newKey: () => string;
  /** First retry delay; doubles per attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** Exponential backoff: base·2^(attempts−1), capped. */
export const backoffDelay = (attempts: number, baseMs: number, maxMs: number): number => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));

/** Sorts by the order taken; keys break ties (two tabs on one device). */
const inOrder = (a: QueuedAction, b: QueuedAction) => a.seq - b.seq || (a.key < b.key ? -1 : 1);

export interface FlushResult {
  sent: number;
  refused: number;
  /** When the next retry is due (epoch ms), null when nothing waits. */
  retryAt: number | null;
}

export class Outbox {
  private actions: QueuedAction[] = [];
  private notKept: readonly NotKept[] = [];
  private notKeptCount = 0;
  private loaded: Promise<void> | null = null;
  private flushing: Promise<FlushResult> | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(
    private readonly store: OutboxStore,
    private readonly send: Sender,
    private readonly options: OutboxOptions,
    private readonly onDone: (action: QueuedAction, body: unknown) => void = () => undefined,
  ) {
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
  }

  /** Reads what an earlier run of the app left (once). */
  load(): Promise<void> {
    this.loaded ??= this.store.all().then((stored) => {
      const known = new Set(this.actions.map((a) => a.key));
      this.actions = [...this.actions, ...stored.filter((a) => !known.has(a.key))].sort(inOrder);
      this.notify();
    });
    return this.loaded;
  }

  /**
   * Resolves once the actions stored at start are loaded and the flush under way, if any, is over (sent, refused or
   * waiting for a retry); never rejects.
   */
  async idle(): Promise<void> {
    await this.load().catch(() => undefined);
    await this.flushing?.catch(() => undefined);
  }

  snapshot(): readonly QueuedAction[] {
    return this.actions;
  }

  /** The taps the device could not store, until the driver dismisses them. */
  notKeptSnapshot(): readonly NotKept[] {
    return this.notKept;
  }

  dismissNotKept(id: number): void {
    this.notKept = this.notKept.filter((n) => n.id !== id);
    this.notify();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stores the action before anything is sent: the driver's tap survives a closed app. */
  async enqueue(input: { kind: ActionKind; tourId: string; stopId: string | null; path: string; body: unknown }): Promise<QueuedAction> {
    let action: QueuedAction;
    try {
      await this.load();
      const seq = Math.max(this.options.now(), (this.actions.at(-1)?.seq ?? 0) + 1);
      action = { ...input, key: this.options.newKey(), seq, method: 'POST', takenAt: this.options.now(), attempts: 0, notBefore: 0, state: 'waiting', problem: null };
      await this.store.put(action);
    } catch (error) {
      // Never silently (decision 1789): a tap that is not stored is not sent either, and the screen goes back to the old step.
      this.notKept = [...this.notKept, { id: ++this.notKeptCount, kind: input.kind, message: error instanceof Error ? error.message : String(error) }];
      this.notify();
      throw error;
    }
    this.actions = [...this.actions, action].sort(inOrder);
    this.notify();
    return action;
  }

  /** The driver has read a refusal: it goes. Waiting actions are never dismissed. */
  async dismiss(key: string): Promise<void> {
    const found = this.actions.find((a) => a.key === key);
    if (!found || found.state !== 'refused') return;
    await this.store.delete(key);
    this.actions = this.actions.filter((a) => a.key !== key);
    this.notify();
  }

  /**
   * Sends the waiting actions in order, one at a time. Stops at the first that must be retried (what follows may
   * depend on it); `force` ignores the backoff (the connection just came back).
   */
  flush(force = false): Promise<FlushResult> {
    this.flushing ??= this.run(force).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async run(force: boolean): Promise<FlushResult> {
    await this.load();
    // A sent action's removal from the store runs beside the next request instead of before it: should the app close
    // before the removal commits, the action goes again with its key and the server replays its answer (decision
    // 0100), so it still takes effect once (decision 1208). The flush ends when every removal has.
    const removals: Promise<unknown>[] = [];
    const removed = async (result: FlushResult): Promise<FlushResult> => {
      const failed = (await Promise.allSettled(removals)).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return result;
    };
    let sent = 0;
    let refused = 0;
    for (const action of [...this.actions]) {
      if (action.state !== 'waiting') continue;
      if (!force && action.notBefore > this.options.now()) return removed({ sent, refused, retryAt: action.notBefore });
      let result: SendResult;
      try {
        result = await this.send(action);
      } catch {
        result = { kind: 'retry' };
      }
      if (result.kind === 'done') {
        const removal = this.store.delete(action.key);
        removal.catch(() => undefined); // reported when the flush ends, not as an unhandled rejection meanwhile
        removals.push(removal);
        this.actions = this.actions.filter((a) => a.key !== action.key);
        sent += 1;
        this.onDone(action, result.body);
        this.notify();
        continue;
      }
      if (result.kind === 'refused') {
        const next = { ...action, attempts: action.attempts + 1, state: 'refused' as const, problem: result.problem };
        await this.replace(next);
        refused += 1;
        continue;
      }
      const attempts = action.attempts + 1;
      const delay = Math.max(result.retryAfterMs ?? 0, backoffDelay(attempts, this.baseDelayMs, this.maxDelayMs));
      const next = { ...action, attempts, notBefore: this.options.now() + delay };
      await this.replace(next);
      return removed({ sent, refused, retryAt: next.notBefore });
    }
    return removed({ sent, refused, retryAt: null });
  }

  private async replace(action: QueuedAction): Promise<void> {
    await this.store.put(action);
    this.actions = this.actions.map((a) => (a.key === action.key ? action : a));
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * What the server said decides: 2xx done; 5xx, 429, 408 and a key still in use are worth another try, and so is 401
 * (the session ended: the action waits for the driver to sign in again, it was not refused).
 */
export function classify(status: number, body: unknown, retryAfter: string | null): SendResult {
  if (status >= 200 && status < 300) return { kind: 'done', status, body };
  const problem = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code = typeof problem.error_code === 'string' ? problem.error_code : 'unknown';
  if (status >= 500 || status === 429 || status === 408 || status === 401 || code === 'idempotency_key_in_use') {
    const seconds = Number(retryAfter);
    return Number.isFinite(seconds) && seconds > 0 ? { kind: 'retry', retryAfterMs: seconds * 1000 } : { kind: 'retry' };
  }
  const detail = typeof problem.detail === 'string' ? problem.detail : `HTTP ${status}`;
  return { kind: 'refused', status, problem: { status, error_code: code, detail, ...(typeof problem.reason_key === 'string' ? { reason_key: problem.reason_key } : {}) } };
}
