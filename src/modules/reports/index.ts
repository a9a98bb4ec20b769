// What other modules and the CLI may use of reports: the routes, the permission matrix, and key rotation.
export { reportRoutes } from './routes.ts';
export { reportPermissions, REPORT_ACTIONS, type ReportAction, type ReportPermissions } from './permissions.ts';
export { rewrapReportKeys, type RewrapOptions } from './operations/rotate-keys.ts';
export { expireReportJob } from './jobs.ts';
