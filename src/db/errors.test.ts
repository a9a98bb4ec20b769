// Which driver errors mean "the database is away" (503, decision 1400) and which are ours to answer otherwise.
import { describe, expect, it } from 'vitest';
import { databaseUnavailable, rootMessage } from './errors.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** Drizzle wraps the driver's error as `cause` of a "Failed query: …" error. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('databaseUnavailable', () => {
  it.each([
    ['57P01 admin_shutdown', withCode('57P01')],
    ['57P03 cannot_connect_now', withCode('57P03')],
    ['08006 connection_failure', withCode('08006')],
    ['25006 read_only_sql_transaction (a standby after a failover)', withCode('25006')],
    ['ECONNREFUSED', withCode('ECONNREFUSED')],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a client query timeout', new Error('Query read timeout')],
    ['both addresses of localhost refused', Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {})],
  ])('%s, also wrapped by Drizzle', (_name, err) => {
    expect(databaseUnavailable(err)).toBe(true);
    expect(databaseUnavailable(wrapped(err))).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a deadlock (retried elsewhere)', withCode('40P01')],
    ['a syntax error (a bug)', withCode('42601')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('not %s', (_name, err) => {
    expect(databaseUnavailable(err)).toBe(false);
    expect(databaseUnavailable(wrapped(err))).toBe(false);
  });

  it('logs the innermost message', () => {
    expect(rootMessage(wrapped(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')))).toBe('connect ECONNREFUSED 127.0.0.1:5432');
  });
});
