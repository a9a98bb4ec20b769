// What the rest of Tourbook uses of busyness: the worker makes sure the periodic tick exists.
export { ensureBusynessTick } from './jobs.ts';
