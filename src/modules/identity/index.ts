// What other modules may use of identity: credential resolution, user, organization and tenant look-ups, a driver's
// active tour, and the seams identity asks through (hooks.ts).
export {
  adminEmails,
  autoDispatchSettingRead,
  findUser,
  membershipsOf,
  findTenant,
  findOrganization,
  findOrganizations,
  findServiceArea,
  findServiceAreas,
  serviceAreasNotifyingRecipients,
  grantAudience,
  setActiveTour,
  tenantExtensionsRead,
  tenantsWithExtension,
  userNameRead,
} from './repository.ts';
export type { UserRow, OrganizationRow, ServiceAreaRow } from './repository.ts';
export { findActiveCredential } from './actors.ts';
export type { IdentityHooks } from './hooks.ts';
// For the tourbook command (src/cli/): the bootstrap tenant and the operator's way back in.
export { countTenants } from './repository.ts';
export { createTenant, createBootstrapTenant } from './operations/create-tenant.ts';
export { createAdminKey, type AdminKeyResult } from './operations/manage-tenant.ts';
