// What other modules may use of tours: rows, the post-change settlement, event data, visibility rules.
export * as toursRepository from './repository.ts';
export { countOpenToursAndBusyDrivers } from './repository.ts';
export type { TourRow } from './repository.ts';
export { settle, bookingEventData, tourEventData, type Change } from './settle.ts';
export { canSeeBooking, canSeeTour, bookingOrganizations, tourOrganizations, isEligibleDriver } from './visibility.ts';
export { isOpenTour, OPEN_TOUR_STATUSES } from './tour-machine.ts';
export { getTour, renderTour, visibleTour } from './operations.ts';
export { onDispatchChange, type DispatchChange } from './hooks.ts';
