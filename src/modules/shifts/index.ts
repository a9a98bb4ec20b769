// What other modules may use of shifts: the routes, and the shifts of drivers for planning (docs/api-guide.md "Optimising tours and planning dispatch").
export { shiftRoutes } from './routes.ts';
export { shiftsByIds, shiftsOfDrivers, type ShiftView } from './operations.ts';
export type { ShiftVehicle } from './tables.ts';
// Shifts' texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as shifts } from './operations.ts';
export const messages: readonly Messages[] = [shifts];
