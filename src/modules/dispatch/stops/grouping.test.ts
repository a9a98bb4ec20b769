import { describe, expect, it } from 'vitest';
import { AppError } from '../../../http/errors.ts';
import { automaticGroup, groupAfterTypeChange, groupForNewStop } from './grouping.ts';

const PLACE = '0190a6c4-7a3b-7c3e-8f00-000000000001';

describe('stop groups', () => {
  it('gives a stop from a place without a group the automatic group of its type and place', () => {
    expect(groupForNewStop(undefined, 'pickup', PLACE, '/stop/group')).toBe(`A-pickup-${PLACE}`);
  });

  it('keeps an explicit group', () => {
    expect(groupForNewStop('dock 4', 'pickup', PLACE, '/stop/group')).toBe('dock 4');
  });

  it('leaves a stop from a raw address without a group ungrouped', () => {
    expect(groupForNewStop(undefined, 'dropoff', null, '/stop/group')).toBeNull();
  });

  it('keeps automatic groups of the longest stop type within 50 characters', () => {
    expect(automaticGroup('abcdefghijk', PLACE).length).toBeLessThanOrEqual(50);
  });

  it.each([
    ['A-custom', 'reserved_group_prefix'],
    ['x'.repeat(51), 'group_too_long'],
  ])('rejects the explicit group %s with %s and the field’s pointer', (group, code) => {
    try {
      groupForNewStop(group, 'pickup', PLACE, '/booking/stops/1/group');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe(code);
      expect((err as AppError).errors[0]?.pointer).toBe('/booking/stops/1/group');
    }
  });

  it('accepts exactly 50 characters', () => {
    expect(groupForNewStop('x'.repeat(50), 'pickup', PLACE, '/g')).toHaveLength(50);
  });

  it('moves an automatic group to the new type and never touches an explicit one', () => {
    expect(groupAfterTypeChange(`A-pickup-${PLACE}`, 'task', PLACE)).toBe(`A-task-${PLACE}`);
    expect(groupAfterTypeChange('dock 4', 'task', PLACE)).toBe('dock 4');
    expect(groupAfterTypeChange(null, 'task', PLACE)).toBeNull();
  });
});
