// Loaded into a bench server with --import: while the file STATEMENT_LOG.on exists, every statement the server's
// pg clients send is appended to STATEMENT_LOG as a JSON line (text, name, values as the driver sends them).
import fs from 'node:fs';
import pg from 'pg';
import { createRequire } from 'node:module';

// The driver's own conversion of values to what it sends (no type declarations ship for pg/lib/utils).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };
const file = process.env.STATEMENT_LOG;
if (file) {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (fs.existsSync(`${file}.on`)) {
      const [first, second] = args as [unknown, unknown];
      const config = (typeof first === 'string' ? { text: first } : first) as { text: string; name?: string; values?: unknown[] };
      // Values come in the config or as the second argument (Drizzle passes them so).
      const values = (config.values ?? (Array.isArray(second) ? second : [])).map((v) => {
        const prepared = prepareValue(v);
        return Buffer.isBuffer(prepared) ? prepared.toString() : prepared;
      });
      fs.appendFileSync(file, `${JSON.stringify({ text: config.text, name: config.name ?? null, values })}\n`);
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}
