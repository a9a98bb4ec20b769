// What other modules may use of shifts: the routes, and the shifts of drivers for planning (docs/api-guide.md "Optimising tours and planning dispatch").
export { shiftRoutes } from './routes.ts';
export { shiftsByIds, shiftsOfDrivers, type ShiftView } from './operations.ts';
export type { ShiftVehicle } from './tables.ts';
