// The simulator's request statistics: latency per endpoint (route pattern), errors, and the lines it prints.
const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export const endpointOf = (method: string, path: string): string => `${method} ${path.split('?')[0]?.replace(UUID_RE, '{id}')}`;

export interface Stats {
  record(endpoint: string, ms: number): void;
  /**
   * From now on, requests count under `prefix`: the set-up's (users, keys, places) are reported apart, then those of a
   * warm-up ("(warm-up) ") if the run has one, then the steady run's ('').
   */
  startRun(prefix: string): void;
  error(message: string): void;
  readonly errors: string[];
  readonly requests: number;
  /** p50/p99 in ms per endpoint, endpoints sorted. */
  percentiles(): { endpoint: string; count: number; p50: number; p99: number }[];
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;

export function createStats(): Stats {
  const samples = new Map<string, number[]>();
  const errors: string[] = [];
  let requests = 0;
  // The goal (p99 per endpoint) is about the city running, not about creating 500 drivers before it starts.
  let prefix = '(set-up) ';
  return {
    startRun(next) {
      prefix = next;
    },
    record(name, ms) {
      requests += 1;
      const endpoint = prefix + name;
      (samples.get(endpoint) ?? samples.set(endpoint, []).get(endpoint))?.push(ms);
    },
    error(message) {
      errors.push(message);
    },
    get errors() {
      return errors;
    },
    get requests() {
      return requests;
    },
    percentiles() {
      return [...samples.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([endpoint, values]) => {
          const sorted = [...values].sort((a, b) => a - b);
          return { endpoint, count: values.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
        });
    },
  };
}
