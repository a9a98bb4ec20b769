// Properties of stop groups (fast-check): automatic groups follow the type, explicit ones never change.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../http/errors.ts';
import { automaticGroup, checkExplicitGroup, groupAfterTypeChange, groupForNewStop, isAutomaticGroup, MAX_GROUP_LENGTH } from './grouping.ts';

const type = fc.constantFrom('pickup', 'dropoff', 'task', 'return');
const placeId = fc.uuid();
const explicit = fc.string({ maxLength: 70 });

describe('stop group properties', () => {
  it('refuses an explicit group exactly when it has the automatic prefix or is too long, with its pointer', () => {
    fc.assert(
      fc.property(explicit, (group) => {
        const refused = group.startsWith('A-') || group.length > MAX_GROUP_LENGTH;
        let error: unknown = null;
        try {
          checkExplicitGroup(group, '/stop/group');
        } catch (err) {
          error = err;
        }
        expect(error !== null).toBe(refused);
        if (error) expect((error as AppError).errors[0]?.pointer).toBe('/stop/group');
      }),
    );
  });

  it('gives a new stop its valid explicit group, else the automatic group of its place, else none', () => {
    fc.assert(
      fc.property(fc.option(explicit, { nil: null }), type, fc.option(placeId, { nil: null }), (group, t, place) => {
        fc.pre(group === null || (!group.startsWith('A-') && group.length <= MAX_GROUP_LENGTH));
        const result = groupForNewStop(group, t, place, '/group');
        if (group !== null) expect(result).toBe(group);
        else expect(result).toBe(place ? automaticGroup(t, place) : null);
      }),
    );
  });

  it('moves an automatic group to the new type and never touches an explicit one', () => {
    fc.assert(
      fc.property(type, type, placeId, explicit, (from, to, place, group) => {
        fc.pre(!group.startsWith('A-'));
        expect(groupAfterTypeChange(automaticGroup(from, place), to, place)).toBe(automaticGroup(to, place));
        expect(isAutomaticGroup(groupAfterTypeChange(automaticGroup(from, place), to, place))).toBe(true);
        expect(groupAfterTypeChange(group, to, place)).toBe(group);
        expect(groupAfterTypeChange(null, to, place)).toBeNull();
      }),
    );
  });
});
