// The `tourbook simulate` command: parses its flags, runs the city, prints the summary; non-zero exit on any error.
import { ConfigError } from '../config.ts';
import { runSimulation } from './city.ts';

const USAGE = `Usage: tourbook simulate --url U --token T [--drivers N] [--bookings-per-minute M] [--duration S] [--speedup X] [--seed K] [--warmup W]

  Drives a running Tourbook through its public HTTP API with a simulated Berlin: a service area, two organizations,
  N drivers (default 5), places from real coordinates, M bookings per simulated minute (default 6), tours claimed
  or picked, positions every 5 s (simulated), stops completed or failed. Runs S real seconds (default 60), X times
  faster than real time (default 1), deterministic for seed K (default 1). The first W real seconds (default 0) are
  reported apart as "(warm-up)". Exits 1 on any 5xx or protocol error.
`;

const number = (value: string | undefined, name: string, fallback: number, min: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new ConfigError(`--${name} must be a number ≥ ${min}, got "${value}"`);
  return n;
};

/** The command's flags, for the CLI's parser (src/main.ts). */
export const SIMULATE_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  drivers: { type: 'string' },
  'bookings-per-minute': { type: 'string' },
  duration: { type: 'string' },
  speedup: { type: 'string' },
  seed: { type: 'string' },
  warmup: { type: 'string' },
  help: { type: 'boolean' },
} as const;

type SimulateFlags = { [K in keyof typeof SIMULATE_OPTIONS]?: (typeof SIMULATE_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export async function simulateCommand(values: SimulateFlags): Promise<void> {
  if (values.help) return void console.log(USAGE);
  const token = values.token ?? process.env.TOURBOOK_ADMIN_TOKEN;
  if (!token) throw new ConfigError(`simulate needs an admin token (--token or TOURBOOK_ADMIN_TOKEN)\n\n${USAGE}`);
  const summary = await runSimulation({
    url: values.url ?? process.env.TOURBOOK_URL ?? 'http://127.0.0.1:3000',
    token,
    drivers: Math.floor(number(values.drivers, 'drivers', 5, 1)),
    bookingsPerMinute: number(values['bookings-per-minute'], 'bookings-per-minute', 6, 0),
    durationSeconds: number(values.duration, 'duration', 60, 1),
    speedup: number(values.speedup, 'speedup', 1, 1),
    seed: Math.floor(number(values.seed, 'seed', 1, 0)),
    warmupSeconds: number(values.warmup, 'warmup', 0, 0),
    log: (line) => console.log(line),
  });
  console.log(`\nsimulate: summary after ${summary.seconds.toFixed(1)} s`);
  console.log(`  bookings ${summary.bookings}, stops done ${summary.stopsDone}, failures ${summary.failures}, positions ${summary.positions}, requests ${summary.requests}`);
  for (const e of summary.endpoints) console.log(`  ${e.endpoint.padEnd(58)} ${String(e.count).padStart(7)}  p50 ${e.p50.toFixed(1).padStart(7)} ms  p99 ${e.p99.toFixed(1).padStart(7)} ms`);
  console.log(`  errors ${summary.errors.length}`);
  for (const error of summary.errors.slice(0, 20)) console.log(`    ${error}`);
  if (summary.errors.length) process.exitCode = 1;
}
