import { describe, expect, it } from 'vitest';
import type { UserRole } from './actor.ts';
import { permissionTable } from './permission-table.ts';

const table = permissionTable({ admin: ['read', 'manage'], manager: ['read'], driver: [], customer: ['manage'] });

const cases: [UserRole, 'read' | 'manage', boolean][] = [
  ['admin', 'read', true],
  ['admin', 'manage', true],
  ['manager', 'read', true],
  ['manager', 'manage', false],
  ['driver', 'read', false],
  ['driver', 'manage', false],
  ['customer', 'read', false],
  ['customer', 'manage', true],
];

describe('permissionTable', () => {
  for (const [role, action, allowed] of cases) {
    it(`${allowed ? 'lets' : 'forbids'} ${role} ${action}`, () => {
      expect(table.may({ role }, action)).toBe(allowed);
      if (allowed) expect(() => table.require({ role }, action)).not.toThrow();
      else expect(() => table.require({ role }, action)).toThrow(expect.objectContaining({ status: 403, code: 'forbidden' }));
    });
  }
});
