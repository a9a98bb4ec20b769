// Statements on embedded PGlite, each parsed once and run in one call into WebAssembly. PGlite's own query() makes six
// calls per statement (parse, describe, bind, describe, execute, sync) and plans the statement every time: ~150 µs
// for a primary-key read whose execution takes a tenth of that. Here every statement text becomes a named prepared
// statement the first time it is seen (its parameter types described once), and each run sends bind, describe,
// execute and sync as one message batch. PostgreSQL's plan cache then decides, per statement, between custom and
// generic plans as it does for any prepared statement.
import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/** Named statements kept at once; the least recently used one beyond this is closed. */
const MAX_STATEMENTS = 300;

/** PostgreSQL's answer when a cached statement's result columns changed under it (a migration ran since). */
const CACHED_PLAN_CHANGED = '0A000';

interface Statement {
  name: string;
  paramTypes: number[];
}

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Replaces `client.query` (and, inside `client.transaction`, each transaction's `query`) with the prepared path.
 * A query's own `parsers` are ignored: the instance is created with the parsers its callers need (see client.ts),
 * because merging them into PGlite's defaults on every query costs more than a primary-key read.
 */
export function preparedStatements(client: PGlite): void {
  const statements = new Map<string, Statement>();
  /** Evicted statements, closed with the next batch. */
  let toClose: string[] = [];
  let counter = 0;

  async function statementFor(text: string, options: QueryOptions | undefined): Promise<Statement> {
    const known = statements.get(text);
    if (known) {
      // Map order is insertion order: moving the entry to the end keeps the least recently used first.
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `tb_${++counter}`;
    const closing = toClose.map((old) => serialize.close({ type: 'S', name: old }));
    toClose = [];
    const { messages } = await client.execProtocol(
      concat([...closing, serialize.parse({ name, text, types: options?.paramTypes ?? [] }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    if (statements.size > MAX_STATEMENTS) {
      const [oldest] = statements;
      if (oldest) {
        statements.delete(oldest[0]);
        toClose.push(oldest[1].name);
      }
    }
    return statement;
  }

  /** Outside a transaction a statement the schema changed under is prepared again and run once more. */
  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    try {
      return await runOnce<T>(text, params, options);
    } catch (err) {
      if (inTransaction || (err as { code?: string }).code !== CACHED_PLAN_CHANGED) throw err;
      return runOnce<T>(text, params, options);
    }
  }

  async function runOnce<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const statement = await statementFor(text, options);
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = options?.serializers?.[statement.paramTypes[i]!] ?? client.serializers[statement.paramTypes[i]!];
      return serializer ? serializer(param) : String(param);
    });
    try {
      const { messages } = await client.execProtocol(
        concat([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
      const { parsers: _ignored, ...rest } = options ?? {};
      return parse.parseResults(messages, client.parsers, rest)[0] as Results<T>;
    } catch (err) {
      // The statement no longer fits the schema: forget it, so the next run prepares it afresh.
      if ((err as { code?: string }).code === CACHED_PLAN_CHANGED && statements.get(text) === statement) {
        statements.delete(text);
        toClose.push(statement.name);
      }
      throw err;
    }
  }

  const query: Query = async (text, params = [], options) =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const result = await run<never>(text, params, options, false);
        await client.syncToFs();
        return result;
      }),
    );
  client.query = query as PGlite['query'];

  const transaction = client.transaction.bind(client);
  client.transaction = (fn) =>
    transaction((tx) => {
      const txQuery: Query = async (text, params = [], options) => {
        if (tx.closed) throw new Error('Transaction is closed');
        return client._runExclusiveQuery(() => run(text, params, options, true));
      };
      (tx as Transaction).query = txQuery as Transaction['query'];
      return fn(tx);
    });
}
