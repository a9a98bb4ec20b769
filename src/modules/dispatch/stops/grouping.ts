// Stop groups (docs/api-guide.md "Bookings, stops and tours"): automatic groups `A-<type>-<place_id>`, explicit groups kept, 50 characters at most.
import type { Messages } from '../../../http/i18n.ts';
import { unprocessable } from '../../../http/errors.ts';

export const MAX_GROUP_LENGTH = 50;
const AUTOMATIC_PREFIX = 'A-';

export const automaticGroup = (type: string, placeId: string): string => `${AUTOMATIC_PREFIX}${type}-${placeId}`;
export const isAutomaticGroup = (group: string | null): boolean => group?.startsWith(AUTOMATIC_PREFIX) ?? false;

export const messages: Messages = {
  'group.reserved_prefix': { en: 'Groups starting with "A-" are reserved for automatic groups.', de: 'Gruppen mit dem Präfix „A-“ sind automatischen Gruppen vorbehalten.' },
  'group.too_long': { en: 'A stop group has at most 50 characters.', de: 'Eine Stoppgruppe hat höchstens 50 Zeichen.' },
};

/** Rejects an explicit group the caller may not set; `pointer` names the field in the request body. */
export function checkExplicitGroup(group: string, pointer: string): void {
  if (group.startsWith(AUTOMATIC_PREFIX)) {
    throw unprocessable('reserved_group_prefix', { key: 'group.reserved_prefix' }, [{ pointer, code: 'reserved_group_prefix', detail: 'starts with the reserved prefix "A-"' }]);
  }
  if (group.length > MAX_GROUP_LENGTH) {
    throw unprocessable('group_too_long', { key: 'group.too_long' }, [{ pointer, code: 'group_too_long', detail: `is longer than ${MAX_GROUP_LENGTH} characters` }]);
  }
}

/** The group a new stop gets: the explicit one, else the automatic one when it comes from a place, else none. */
export function groupForNewStop(explicit: string | null | undefined, type: string, placeId: string | null, pointer: string): string | null {
  if (explicit !== undefined && explicit !== null) {
    checkExplicitGroup(explicit, pointer);
    return explicit;
  }
  return placeId ? automaticGroup(type, placeId) : null;
}

/** After a type change an automatic group follows the new type; an explicit group never changes. */
export function groupAfterTypeChange(group: string | null, newType: string, placeId: string | null): string | null {
  return isAutomaticGroup(group) && placeId ? automaticGroup(newType, placeId) : group;
}
