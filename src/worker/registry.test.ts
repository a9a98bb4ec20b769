import { describe, expect, it } from 'vitest';
import { DEBOUNCED_EVENT_TYPES, type DebouncedEventBuilders } from './debounce.ts';
import { assertAllDebouncedEventsBuilt, DEBOUNCED_EVENT_BUILDERS, JOB_HANDLERS } from './handlers.ts';
import { JOB_KINDS } from './job-kinds.ts';
import { assertAllKindsHandled, isJobKind, type JobHandlers } from './registry.ts';

describe('the job registry', () => {
  it('has a handler for every job kind, and nothing else', () => {
    expect(Object.keys(JOB_HANDLERS).sort()).toEqual([...JOB_KINDS].sort());
    expect(() => assertAllKindsHandled(JOB_HANDLERS)).not.toThrow();
  });

  it('refuses to start when a kind has no handler', () => {
    const { 'mail.send': _dropped, ...rest } = JOB_HANDLERS;
    expect(() => assertAllKindsHandled(rest as JobHandlers)).toThrow('job kinds without a handler: mail.send');
  });

  it('knows only the closed list of kinds', () => {
    expect(isJobKind('tours.expire_claim')).toBe(true);
    expect(isJobKind('tours.expire_claims')).toBe(false);
  });

  it('has a payload builder for every debounced event type, and refuses to start without one', () => {
    expect(Object.keys(DEBOUNCED_EVENT_BUILDERS).sort()).toEqual([...DEBOUNCED_EVENT_TYPES].sort());
    expect(() => assertAllDebouncedEventsBuilt(DEBOUNCED_EVENT_BUILDERS)).not.toThrow();
    const { 'tour.compensation_updated': _dropped, ...rest } = DEBOUNCED_EVENT_BUILDERS;
    expect(() => assertAllDebouncedEventsBuilt(rest as DebouncedEventBuilders)).toThrow('debounced events without a payload builder: tour.compensation_updated');
  });
});
