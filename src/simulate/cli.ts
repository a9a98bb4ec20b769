// The `tourbook simulate` command: parses its flags, runs the city, prints the summary; non-zero exit on any error.
import { ConfigError } from '../config.ts';
import { CITIES, runSimulation, type City } from './city.ts';

const number = (value: string | undefined, name: string, fallback: number, min: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new ConfigError(`--${name} must be a number ≥ ${min}, got "${value}"`);
  return n;
};

/** The command's flags as the CLI's parser (src/main.ts, which also holds the command's --help) hands them over. */
type SimulateFlags = Partial<Record<'url' | 'token' | 'city' | 'drivers' | 'bookings-per-minute' | 'duration' | 'speedup' | 'seed' | 'warmup', string>>;

export async function simulateCommand(values: SimulateFlags): Promise<void> {
  const token = values.token ?? process.env.TOURBOOK_ADMIN_TOKEN;
  if (!token) throw new ConfigError('needs an admin token (--token or TOURBOOK_ADMIN_TOKEN); `tourbook simulate --help` shows every flag');
  const city = values.city ?? 'berlin';
  if (!(CITIES as readonly string[]).includes(city)) throw new ConfigError(`--city must be one of ${CITIES.join(', ')}, got "${city}"`);
  const summary = await runSimulation({
    url: values.url ?? process.env.TOURBOOK_URL ?? 'http://127.0.0.1:3000',
    token,
    city: city as City,
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
  const ratio = summary.metersStraight > 0 ? ` (${(summary.metersDriven / summary.metersStraight).toFixed(2)} × the straight lines between the stops)` : '';
  console.log(`  driven ${(summary.metersDriven / 1000).toFixed(1)} km${ratio}`);
  for (const e of summary.endpoints) console.log(`  ${e.endpoint.padEnd(58)} ${String(e.count).padStart(7)}  p50 ${e.p50.toFixed(1).padStart(7)} ms  p99 ${e.p99.toFixed(1).padStart(7)} ms`);
  console.log(`  errors ${summary.errors.length}`);
  for (const error of summary.errors.slice(0, 20)) console.log(`    ${error}`);
  if (summary.errors.length) process.exitCode = 1;
}
