// Group commit for same-shape inserts: writes that concurrent requests start in the same turn of the event loop go
// to the database as one statement (each table's rows concatenated), so a burst of creates pays one round trip, one
// executor start-up and one commit instead of one each. Each write stays atomic: when the shared statement fails
// (a unique index refusing one member's row), every member is written again on its own and gets its own outcome.
import type { Db } from './client.ts';
import { insertAll, type TableRows } from './json-insert.ts';

/** Members per statement: bounds the statement's size and a failed batch's cost of retrying one by one. */
const MAX_MEMBERS = 32;

interface Member {
  parts: TableRows[];
  resolve(): void;
  reject(err: unknown): void;
}

/** The open batch of each statement name, per database handle. */
const pendingByHandle = new WeakMap<Db, Map<string, Member[]>>();

function merged(members: Member[]): TableRows[] {
  return members[0]!.parts.map((part, i) => ({ table: part.table, rows: members.flatMap((m) => m.parts[i]!.rows) }));
}

async function flush(db: Db, name: string, members: Member[], via: string | undefined): Promise<void> {
  if (members.length === 1) {
    const [only] = members as [Member];
    await insertAll(db, name, only.parts, via).then(only.resolve, only.reject);
    return;
  }
  try {
    await insertAll(db, name, merged(members), via);
    for (const m of members) m.resolve();
  } catch {
    // Nothing of the batch was written (one statement): each member is written alone and meets its own error.
    await Promise.all(members.map((m) => insertAll(db, name, m.parts, via).then(m.resolve, m.reject)));
  }
}

/**
 * `insertAll(db, name, parts, via)`, possibly together with other callers' writes of the same `name` (the same tables in
 * the same order) started in this turn of the event loop. Resolves once this write is committed. Outside a
 * transaction only: a transaction's writes must stay on its own connection.
 */
export function insertAllBatched(db: Db, name: string, parts: TableRows[], via?: string): Promise<void> {
  let pending = pendingByHandle.get(db);
  if (!pending) pendingByHandle.set(db, (pending = new Map()));
  const byName = pending;
  return new Promise<void>((resolve, reject) => {
    let batch = byName.get(name);
    if (!batch) {
      const opened: Member[] = [];
      byName.set(name, (batch = opened));
      // After the current turn's I/O callbacks and promise continuations: every write started meanwhile joins.
      setImmediate(() => {
        if (byName.get(name) === opened) byName.delete(name);
        void flush(db, name, opened, via);
      });
    }
    batch.push({ parts, resolve, reject });
    // A full batch is closed; the next write opens another, flushed in the same turn.
    if (batch.length >= MAX_MEMBERS) byName.delete(name);
  });
}
