// Reading one stop: visible through its booking, or through its tour for a tour-only stop.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { requireStop } from '../access.ts';
import { renderStop } from './render-stops.ts';
import { readProofImage } from '../proof-files/index.ts';
import type { ProofFileKind } from '../tables.ts';

/** GET /api/stops/{id}: visible through its booking, or through its tour for a tour-only stop. */
export async function getStop(deps: Deps, actor: Actor, stopId: string) {
  return renderStop(deps.db, deps, actor, await requireStop(deps.db, actor, stopId));
}

/**
 * GET /api/stops/{id}/proof/{photo|signature}: the decrypted image for whoever may see the stop (decision 1250); 404
 * for a stop the caller may not see and for a proof without that image or whose file retention deleted.
 */
export async function getStopProofImage(deps: Deps, actor: Actor, stopId: string, kind: ProofFileKind) {
  await requireStop(deps.db, actor, stopId);
  return readProofImage(deps, actor.tenantId, { ownerKind: 'stop', ownerId: stopId }, kind);
}
