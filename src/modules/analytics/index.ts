// What the composition root uses of analytics: its routes and its permission table.
export { analyticsRoutes } from './routes.ts';
export { ANALYTICS_ACTIONS, mayOnAnalytics, type AnalyticsAction } from './permissions.ts';
// The tracking read's ETA window widens with the tenant's measured ETA error (decision 1786).
export { etaErrorShare } from './repository.ts';
