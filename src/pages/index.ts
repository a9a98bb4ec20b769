// The people's pages: the console, the driver app and the tracking page, served by the api role (decision 1000).
export { pageRoutes, renderShell } from './routes.ts';
export { contentSecurityPolicy, pageHeaders } from './security-headers.ts';
