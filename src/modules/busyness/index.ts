// What the rest of Tourbook uses of busyness: the worker makes sure the periodic tick exists.
export { busynessTickJob, ensureBusynessTick } from './jobs.ts';
