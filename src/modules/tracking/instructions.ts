// The recipient's delivery instructions through the tracking link (docs/tracking.md "Instructions", decision 1788):
// where to leave the parcel when nobody answers, and a note, read and replaced by whoever holds the token and kept on
// the recipient's own open stops, where the driver reads them.
import type { Deps } from '../../deps.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import { findTrackedBooking, recipientOwnStops, recordRecipientInstructions, trackingExpired, type TrackedBooking } from '../dispatch/index.ts';
import { isOpenStop } from './views.ts';

export type InstructionKind = 'none' | 'leave_at_door' | 'neighbour';

export interface InstructionsInput {
  kind: InstructionKind;
  neighbour?: string | null | undefined;
  note?: string | null | undefined;
}

/** The newest instructions on the recipient's own stops (kind `none` until given), and whether they may change still. */
export function instructionsView(tracked: TrackedBooking) {
  const own = recipientOwnStops(tracked.stops);
  const given = own
    .map((s) => s.recipientInstructions)
    .filter((i) => i !== null)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
  return {
    kind: given?.kind ?? ('none' as const),
    neighbour: given?.neighbour ?? null,
    note: given?.note ?? null,
    updated_at: given?.updated_at ?? null,
    editable: own.some(isOpenStop),
  };
}

async function tracked(deps: Deps, token: string): Promise<TrackedBooking> {
  const found = await findTrackedBooking(deps, token);
  if (found === null) throw notFound('tracking link');
  if (found === 'expired') throw trackingExpired();
  return found;
}

/** GET /api/tracking/{token}/instructions. */
export async function readInstructions(deps: Deps, token: string) {
  return instructionsView(await tracked(deps, token));
}

/**
 * PUT /api/tracking/{token}/instructions: the whole instructions, replacing any before. A neighbour is named for
 * `neighbour` and only for it; blank texts are no text.
 */
export async function giveInstructions(deps: Deps, token: string, input: InstructionsInput) {
  const neighbour = input.neighbour?.trim() || null;
  const note = input.note?.trim() || null;
  if (input.kind === 'neighbour' && !neighbour) {
    throw invalidFields([{ pointer: '/instructions/neighbour', code: 'required', detail: 'Name the neighbour who may take the parcel.' }]);
  }
  if (input.kind !== 'neighbour' && neighbour) {
    throw invalidFields([{ pointer: '/instructions/neighbour', code: 'not_allowed', detail: 'A neighbour is named only with kind neighbour.' }]);
  }
  await recordRecipientInstructions(deps, token, { kind: input.kind, neighbour, note });
  return readInstructions(deps, token);
}
