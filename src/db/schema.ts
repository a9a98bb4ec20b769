// Every table of Tourbook, gathered for Drizzle and drizzle-kit; each module owns its own tables file.
export * from '../modules/identity/tables.ts';
export * from '../modules/places/tables.ts';
export * from '../modules/services/tables.ts';
export * from '../events/tables.ts';
export * from '../worker/tables.ts';
export * from '../http/tables.ts';
export * from '../modules/webhooks/tables.ts';
export * from '../modules/busyness/tables.ts';
export * from '../modules/failures/tables.ts';
export * from '../modules/dispatch/tables.ts';
export * from '../modules/live/tables.ts';
export * from '../modules/reports/tables.ts';
export * from '../modules/compensation/tables.ts';
export * from '../modules/shifts/tables.ts';
export * from '../modules/tracking/tables.ts';
export * from '../modules/region/tables.ts';
export * from '../modules/region/roads/tables.ts';
