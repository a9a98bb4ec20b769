// What other modules may use of shifts: the routes, and the shifts of drivers for planning (CONTRACT.md §13).
export { shiftRoutes } from './routes.ts';
export { shiftsOfDrivers, type ShiftView } from './operations.ts';
export type { ShiftVehicle } from './tables.ts';
