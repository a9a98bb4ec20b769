// The outbox kept in IndexedDB (one object store keyed by the Idempotency-Key), so actions and their keys survive a
// closed app, a reboot or a crash; plain IndexedDB, no library.
import type { OutboxStore, QueuedAction } from './outbox.ts';

const STORE = 'actions';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

export function openDatabase(name: string, factory: IDBFactory = indexedDB): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name, 1);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains(STORE)) open.result.createObjectStore(STORE, { keyPath: 'key' });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB unavailable'));
  });
}

export function idbStore(database: Promise<IDBDatabase>): OutboxStore {
  const run = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await database;
    const tx = db.transaction(STORE, mode);
    // A write counts once its transaction committed, not when its request succeeded.
    const committed = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
    const result = await request(work(tx.objectStore(STORE)));
    await committed;
    return result;
  };
  return {
    all: () => run('readonly', (store) => store.getAll() as IDBRequest<QueuedAction[]>),
    put: async (action) => {
      await run('readwrite', (store) => store.put(action));
    },
    delete: async (key) => {
      await run('readwrite', (store) => store.delete(key));
    },
  };
}
