// Reason operations: reading the package and stop failure reasons, the legacy list, and admins managing their tenant's reasons.
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, notFound, unprocessable } from '../../../http/errors.ts';
import { failurePermissions } from '../permissions.ts';
import * as repo from '../repository.ts';
import {
  DEFAULT_PACKAGE_FAILURE_REASONS,
  STOP_FAILURE_REASONS,
  toLegacyReasonView,
  toReasonView,
  type LegacyReasonView,
  type ReasonRecord,
  type ReasonView,
} from '../reasons.ts';
import type { ReasonCreateInput, ReasonUpdateInput } from '../schemas.ts';

/** A tenant keeps at most this many package failure reasons: drivers pick from them on a phone. */
export const MAX_PACKAGE_FAILURE_REASONS = 100;

export type AdminReasonView = ReasonView & { labels: { en: string; de: string } };

const toAdminView = (reason: ReasonRecord, actor: Actor): AdminReasonView => ({
  ...toReasonView('package_failure', reason, actor.lang),
  labels: reason.labels,
});

/** Seeds the default reasons of a new tenant inside the tenant's creation transaction. */
export async function seedPackageFailureReasons(tx: Tx, tenantId: string, at: Date): Promise<void> {
  await repo.insertPackageFailureReasons(
    tx,
    tenantId,
    DEFAULT_PACKAGE_FAILURE_REASONS.map((reason, position) => ({ reason, position })),
    at,
  );
}

export async function listPackageFailureReasons(deps: Deps, actor: Actor): Promise<ReasonView[]> {
  const reasons = await repo.listPackageFailureReasons(deps.db, actor.tenantId);
  return reasons.map((reason) => toReasonView('package_failure', reason, actor.lang));
}

/** The deprecated GET /api/hailing/failure_reasons: the same reasons in docs/api-guide.md "Failed stops"'s legacy shape (its route handles the sunset). */
export async function listLegacyFailureReasons(deps: Deps, actor: Actor): Promise<LegacyReasonView[]> {
  return (await listPackageFailureReasons(deps, actor)).map(toLegacyReasonView);
}

export function listStopFailureReasons(actor: Actor): ReasonView[] {
  return STOP_FAILURE_REASONS.map((reason) => toReasonView('stop_failure', reason, actor.lang));
}

export async function listAdminPackageFailureReasons(deps: Deps, actor: Actor): Promise<AdminReasonView[]> {
  failurePermissions.require(actor, 'manage_reasons');
  const reasons = await repo.listPackageFailureReasons(deps.db, actor.tenantId);
  return reasons.map((reason) => toAdminView(reason, actor));
}

export async function getPackageFailureReason(deps: Deps, actor: Actor, key: string): Promise<AdminReasonView> {
  failurePermissions.require(actor, 'manage_reasons');
  const reason = await repo.findPackageFailureReason(deps.db, actor.tenantId, key);
  if (!reason) throw notFound('reason');
  return toAdminView(reason, actor);
}

export async function createPackageFailureReason(deps: Deps, actor: Actor, input: ReasonCreateInput): Promise<AdminReasonView> {
  failurePermissions.require(actor, 'manage_reasons');
  const at = deps.clock.now();
  const reason: ReasonRecord = {
    key: input.key,
    // A reason written in one language reads the same in the other until an admin translates it.
    labels: { en: input.labels.en, de: input.labels.de ?? input.labels.en },
    stopTypes: input.applies_to.stop_types,
    packageInteractions: input.applies_to.package_interactions,
    noteRequired: input.properties?.note_required ?? false,
    triggersReattempt: input.properties?.triggers_reattempt ?? false,
  };
  return deps.db.transaction(async (tx) => {
    const { count, nextPosition } = await repo.packageFailureReasonStats(tx, actor.tenantId);
    if (count >= MAX_PACKAGE_FAILURE_REASONS) {
      throw unprocessable('reason_limit_reached', `A tenant has at most ${MAX_PACKAGE_FAILURE_REASONS} package failure reasons.`);
    }
    if (!(await repo.insertPackageFailureReasonIfAbsent(tx, actor.tenantId, reason, nextPosition, at))) {
      throw invalidFields([{ pointer: '/reason/key', code: 'taken', detail: `A reason with the key ${reason.key} exists already.` }]);
    }
    return toAdminView(reason, actor);
  });
}

/** PUT and PATCH alike change only the fields given (docs/api-guide.md "Conventions"). */
export async function updatePackageFailureReason(deps: Deps, actor: Actor, key: string, input: ReasonUpdateInput): Promise<AdminReasonView> {
  failurePermissions.require(actor, 'manage_reasons');
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const current = await repo.findPackageFailureReason(tx, actor.tenantId, key, { forUpdate: true });
    if (!current) throw notFound('reason');
    const updated: ReasonRecord = {
      key,
      labels: { en: input.labels?.en ?? current.labels.en, de: input.labels?.de ?? current.labels.de },
      stopTypes: input.applies_to?.stop_types ?? current.stopTypes,
      packageInteractions: input.applies_to?.package_interactions ?? current.packageInteractions,
      noteRequired: input.properties?.note_required ?? current.noteRequired,
      triggersReattempt: input.properties?.triggers_reattempt ?? current.triggersReattempt,
    };
    await repo.updatePackageFailureReason(tx, actor.tenantId, updated, at);
    return toAdminView(updated, actor);
  });
}

/** Deleting a reason keeps history readable: failures recorded its key, label and note when they happened. */
export async function deletePackageFailureReason(deps: Deps, actor: Actor, key: string): Promise<void> {
  failurePermissions.require(actor, 'manage_reasons');
  await deps.db.transaction(async (tx) => {
    if (!(await repo.deletePackageFailureReason(tx, actor.tenantId, key))) throw notFound('reason');
  });
}
