// Deps: everything an operation may use, passed by hand as one plain object.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Clock } from './shared/clock.ts';

export interface Deps {
  db: Db;
  database: Database;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}
