// The driver's outbox: actions stored on the device and sent in order (outbox.ts), in IndexedDB (idb-store.ts).
export { backoffDelay, classify, Outbox, type ActionKind, type NotKept, type OutboxStore, type QueuedAction, type SendResult } from './outbox.ts';
export { idbStore, openDatabase } from './idb-store.ts';
export { outbox, outboxIdle, useNotKept, useOutbox, takeAction } from './use-outbox.ts';
export { projectTour } from './project.ts';
