import { describe, expect, it } from 'vitest';
import { placePermissions, PLACE_ACTIONS, type PlaceAction } from './permissions.ts';
import type { UserRole } from '../../http/actor.ts';

const allowed: Record<UserRole, PlaceAction[]> = {
  admin: ['index', 'show', 'create', 'update', 'destroy', 'fork', 'metadata'],
  manager: ['index', 'show', 'create', 'update', 'fork', 'metadata'],
  customer: ['index', 'show', 'create', 'update', 'fork'],
  driver: ['index', 'show'],
};

describe('places permission matrix', () => {
  for (const [role, actions] of Object.entries(allowed) as [UserRole, PlaceAction[]][]) {
    for (const action of PLACE_ACTIONS) {
      const expected = actions.includes(action);
      it(`${expected ? 'allows' : 'denies'} ${role} to ${action}`, () => {
        expect(placePermissions(role)[action]).toBe(expected);
      });
    }
  }
});
