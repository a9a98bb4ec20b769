// Every table of Tourbook, gathered for Drizzle and drizzle-kit; each module owns its own tables file.
export * from '../modules/identity/tables.ts';
export * from '../events/tables.ts';
export * from '../worker/tables.ts';
export * from '../http/tables.ts';
