// User operations: admins manage users; managers read the users of their organizations; anyone reads itself.
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import { uniqueViolation } from '../../../db/errors.ts';
import { readDb } from '../../../db/replicas.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidateCredentialCache } from '../../../http/auth.ts';
import { badParameter, invalidFields, notFound, unknownReference, unprocessable } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { decodeCursor, toPage, type Page } from '../../../http/pagination.ts';
import { newId } from '../../../shared/ids.ts';
import { hashPassword } from '../../../shared/secrets.ts';
import { toUserView, type UserView } from '../views.ts';
import { requireUser } from '../access.ts';
import { identityPermissions, readScope } from '../permissions.ts';
import * as repo from '../repository.ts';
import * as orgRepo from '../organizations-repository.ts';
import { membershipErrors } from '../rules.ts';
import type { UserCreateInput, UserListQueryInput, UserUpdateInput } from '../schemas.ts';

export const messages: Messages = {
  'identity.cannot_deactivate_self': { en: 'You cannot deactivate your own user.', de: 'Sie können Ihren eigenen Benutzer nicht deaktivieren.' },
};

const emailTaken = () => invalidFields([{ pointer: '/user/email', code: 'taken', detail: 'is already used by another user of this tenant' }]);

async function checkMemberships(tx: Tx, tenantId: string, role: Actor['role'], organizationIds: string[]): Promise<void> {
  const errors = membershipErrors(role, organizationIds);
  if (errors.length) throw invalidFields(errors);
  const found = new Set((await orgRepo.findOrganizations(tx, tenantId, organizationIds)).map((o) => o.id));
  const missing = organizationIds.findIndex((id) => !found.has(id));
  if (missing >= 0) throw unknownReference(`/user/organization_ids/${missing}`, 'organization');
}

async function checkEmailFree(tx: Tx, tenantId: string, email: string, userId: string | null): Promise<void> {
  const holder = await repo.findUserByEmailInTenant(tx, tenantId, email);
  if (holder && holder.id !== userId) throw emailTaken();
}

async function render(tx: Tx, tenantId: string, row: repo.UserRow): Promise<UserView> {
  const memberships = await repo.membershipsOf(tx, tenantId, [row.id]);
  return toUserView(row, memberships.get(row.id) ?? []);
}

async function renderById(tx: Tx, tenantId: string, id: string): Promise<UserView> {
  const row = await repo.findUser(tx, tenantId, id);
  if (!row) throw new Error('user vanished inside its own transaction');
  return render(tx, tenantId, row);
}

/**
 * filters[on_active_hailing_booking] is the deprecated alias of filters[on_active_tour] (docs/api-guide.md "Deprecations and removals");
 * `usedDeprecatedAlias` tells the route to answer with deprecation headers.
 */
export async function listUsers(deps: Deps, actor: Actor, query: UserListQueryInput): Promise<Page<UserView> & { usedDeprecatedAlias: boolean }> {
  const within = readScope(actor, 'read_users');
  const filters = query.filters ?? {};
  const alias = filters.on_active_hailing_booking;
  if (alias !== undefined && filters.on_active_tour !== undefined && alias !== filters.on_active_tour) {
    throw badParameter('parameter_invalid', 'filters[on_active_hailing_booking]', 'filters[on_active_hailing_booking] contradicts filters[on_active_tour].');
  }
  const limit = query.limit ?? 25;
  const [afterId] = decodeCursor(query.cursor) ?? [null];
  // A heavy read: a replica may serve it (decision 1401); both statements read the same one.
  const reader = readDb(deps);
  const rows = await repo.listUsers(reader, actor.tenantId, {
    role: filters.role,
    organizationId: filters.organization_id,
    withinOrganizationIds: within,
    onActiveTour: filters.on_active_tour ?? alias,
    afterId: typeof afterId === 'string' ? afterId : null,
    limit,
  });
  const page = toPage(rows, limit, (row) => [row.id]);
  const memberships = await repo.membershipsOf(reader, actor.tenantId, page.items.map((row) => row.id));
  return {
    items: page.items.map((row) => toUserView(row, memberships.get(row.id) ?? [])),
    meta: page.meta,
    usedDeprecatedAlias: alias !== undefined,
  };
}

export async function getUser(deps: Deps, actor: Actor, id: string): Promise<UserView> {
  const { user, organizationIds } = await requireUser(deps.db, actor, id);
  return toUserView(user, organizationIds);
}

export async function createUser(deps: Deps, actor: Actor, input: UserCreateInput): Promise<UserView> {
  identityPermissions.require(actor, 'manage_users');
  const organizationIds = input.organization_ids ?? [];
  const passwordHash = input.password ? await hashPassword(input.password, deps.config.passwordHash) : null;
  const id = newId();
  const email = input.email.toLowerCase();
  try {
    return await deps.db.transaction(async (tx) => {
      await checkMemberships(tx, actor.tenantId, input.role, organizationIds);
      await checkEmailFree(tx, actor.tenantId, email, null);
      await repo.insertUser(tx, {
        tenantId: actor.tenantId,
        id,
        role: input.role,
        name: input.name,
        email,
        phoneNumber: input.phone_number ?? null,
        passwordHash,
        createdAt: deps.clock.now(),
      });
      await repo.setMemberships(tx, actor.tenantId, id, organizationIds);
      return renderById(tx, actor.tenantId, id);
    });
  } catch (err) {
    throw uniqueViolation(err) !== null ? emailTaken() : err;
  }
}

/** Only the given fields change; role and organizations are checked together as they will be stored. */
export async function updateUser(deps: Deps, actor: Actor, id: string, input: UserUpdateInput): Promise<UserView> {
  identityPermissions.require(actor, 'manage_users');
  const passwordHash = input.password ? await hashPassword(input.password, deps.config.passwordHash) : undefined;
  try {
    const view = await deps.db.transaction(async (tx) => {
      const current = await repo.findUserForUpdate(tx, actor.tenantId, id);
      if (!current) throw notFound('user');
      const currentOrganizations = (await repo.membershipsOf(tx, actor.tenantId, [id])).get(id) ?? [];
      const role = input.role ?? current.role;
      const organizationIds = input.organization_ids ?? currentOrganizations;
      if (input.role !== undefined || input.organization_ids !== undefined) await checkMemberships(tx, actor.tenantId, role, organizationIds);
      const email = input.email?.toLowerCase();
      if (email !== undefined) await checkEmailFree(tx, actor.tenantId, email, id);
      await repo.updateUser(tx, actor.tenantId, id, {
        ...(input.role !== undefined ? { role } : {}),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(email !== undefined ? { email } : {}),
        ...(input.phone_number !== undefined ? { phoneNumber: input.phone_number } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
      });
      if (input.organization_ids !== undefined) await repo.setMemberships(tx, actor.tenantId, id, organizationIds);
      // A new password ends the user's sign-in sessions, browser sessions included; API keys are separate credentials and stay.
      if (passwordHash !== undefined) await repo.revokeUserCredentials(tx, actor.tenantId, id, deps.clock.now(), ['access', 'refresh', 'session']);
      return renderById(tx, actor.tenantId, id);
    });
    // Cached actors carry role and organizations, and revoked sessions must fail: the change applies to the next request.
    if (input.role !== undefined || input.organization_ids !== undefined || passwordHash !== undefined) invalidateCredentialCache();
    return view;
  } catch (err) {
    throw uniqueViolation(err) !== null ? emailTaken() : err;
  }
}

/** DELETE deactivates: the user stays (bookings and tours refer to it) and its credentials stop working at once. */
export async function deactivateUser(deps: Deps, actor: Actor, id: string): Promise<UserView> {
  identityPermissions.require(actor, 'manage_users');
  if (id === actor.userId) throw unprocessable('cannot_deactivate_self', { key: 'identity.cannot_deactivate_self' });
  const view = await deps.db.transaction(async (tx) => {
    const current = await repo.findUserForUpdate(tx, actor.tenantId, id);
    if (!current) throw notFound('user');
    const at = deps.clock.now();
    if (!current.deactivatedAt) {
      await repo.updateUser(tx, actor.tenantId, id, { deactivatedAt: at });
      await repo.revokeUserCredentials(tx, actor.tenantId, id, at);
    }
    return render(tx, actor.tenantId, { ...current, deactivatedAt: current.deactivatedAt ?? at });
  });
  invalidateCredentialCache();
  return view;
}

/** GET /api/user: the caller. */
export async function getCurrentUser(deps: Deps, actor: Actor) {
  const row = await repo.findUser(deps.db, actor.tenantId, actor.userId);
  if (!row) throw notFound('user');
  return toUserView(row, actor.organizationIds);
}
