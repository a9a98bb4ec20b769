// What other modules may use of identity: credential resolution, user, organization and tenant look-ups, a driver's
// active tour. The seams identity asks through (Deps.hooks.identity) are declared in src/seams/identity.ts.
export {
  adminEmails,
  findUser,
  membershipsOf,
  findTenant,
  grantAudience,
  setActiveTour,
  tenantExtensionsRead,
  tenantNameRead,
  tenantsWithExtension,
  userNameRead,
} from './repository.ts';
export {
  autoDispatchSettingRead,
  findOrganization,
  findOrganizations,
  findServiceArea,
  findServiceAreas,
  serviceAreasNotifyingRecipients,
  serviceAreaTimeZoneRead,
  serviceAreaTimeZones,
} from './organizations-repository.ts';
export type { UserRow } from './repository.ts';
export type { OrganizationRow, ServiceAreaRow } from './organizations-repository.ts';
export { findActiveCredential } from './actors.ts';
export { DEFAULT_AVERAGE_SPEED_KMH } from './rules.ts';
// For the tourbook command (src/cli/): the bootstrap tenant and the operator's way back in.
export { countTenants } from './repository.ts';
export { createTenant, createBootstrapTenant } from './operations/create-tenant.ts';
export { createAdminKey, type AdminKeyResult } from './operations/manage-tenant.ts';
export { createBootstrapSignInLink } from './operations/invitations.ts';
// Identity's texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as manageUsers } from './operations/manage-users.ts';
import { messages as signIn } from './operations/sign-in.ts';
import { messages as invitations } from './operations/invitations.ts';
import { messages as signInThrottle } from './operations/sign-in-throttle.ts';
export const messages: readonly Messages[] = [manageUsers, signIn, invitations, signInThrottle];
