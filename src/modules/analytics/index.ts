// What the composition root uses of analytics: its routes and its permission table.
export { analyticsRoutes } from './routes.ts';
export { ANALYTICS_ACTIONS, mayOnAnalytics, type AnalyticsAction } from './permissions.ts';
