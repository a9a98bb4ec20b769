// The pages' data layer: the typed client, the session, errors and the connection state.
export { api, call, setApiLanguage } from './client.ts';
export { useConnection } from './connection.ts';
export { ApiError, ConnectionError, isApiError, type FieldError } from './problem.ts';
export { useSession, useSignIn, useSignOut, type User } from './session.ts';
export { queryClient } from './query-client.ts';
export { byId, useDrivers, useOrganizations, useServiceAreas, useStopFailureReasonLabels, useStopFailureReasons, usePlaceNames, type Organization, type ServiceArea } from './reference.ts';
export type { Schemas } from '../../clients/typescript/src/index.ts';
export { upload, type UploadProgress } from './upload.ts';
export { useLiveStream, type LiveEvent, type LiveState } from './live.ts';
export { EVENT_TYPES, FAILURE_OUTCOMES, LIVE_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from './closed-lists.ts';
export { OPEN_TOUR_STATUSES, useInsertBookings, useInsertStops, useMergeBookings, useOpenTours, useWaitingBookings, waitingStopIds } from './dispatch.ts';
export { tourName, type NameableTour, type TourNaming } from './tour-name.ts';
