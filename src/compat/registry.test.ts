import { describe, expect, it } from 'vitest';
import { COMPAT_ITEMS, deprecationHeaders, isSunset, type CompatKey } from './registry.ts';

const ENFORCING = { enforce_sunsets: true };
const LENIENT = { enforce_sunsets: false };
const justBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 1);
const onTheDay = (day: string) => new Date(`${day}T00:00:00Z`);

const dated = COMPAT_ITEMS.filter((item) => item.status === 'deprecated' && item.removalOn !== null);

describe('compat registry', () => {
  it('lists every dated deprecation of docs/api-guide.md "Deprecations and removals" with its removal day', () => {
    expect(Object.fromEntries(dated.map((item) => [item.key, item.removalOn]))).toEqual({
      'completion_requirements.fail': '2026-10-07',
      'admin.places': '2026-09-30',
      legacy_earnings: '2026-11-06',
      hailing_failure_reasons: '2026-09-16',
    });
  });

  it.each(dated.map((item) => [item.key, item.removalOn!] as const))(
    '%s is served until the end of the day before %s, and sunset from 00:00 UTC that day when enforced',
    (key, day) => {
      expect(isSunset(key as CompatKey, justBefore(day), ENFORCING)).toBe(false);
      expect(isSunset(key as CompatKey, onTheDay(day), ENFORCING)).toBe(true);
      expect(isSunset(key as CompatKey, onTheDay(day), LENIENT)).toBe(false);
    },
  );

  it.each(COMPAT_ITEMS.filter((item) => item.status === 'deprecated' && item.removalOn === null).map((item) => [item.key] as const))(
    '%s has no removal date and is never sunset',
    (key) => {
      expect(isSunset(key as CompatKey, onTheDay('2099-01-01'), ENFORCING)).toBe(false);
    },
  );

  it.each(COMPAT_ITEMS.filter((item) => item.status === 'removed').map((item) => [item.key] as const))(
    '%s is removed for every tenant, whatever its setting',
    (key) => {
      expect(isSunset(key as CompatKey, onTheDay('2026-01-01'), LENIENT)).toBe(true);
    },
  );

  it('builds RFC 9745 Deprecation, RFC 8594 Sunset, a successor Link and a deprecation Link to the guide page', () => {
    expect(deprecationHeaders('hailing_failure_reasons')).toEqual({
      deprecation: `@${Date.parse('2026-01-01T00:00:00Z') / 1000}`,
      sunset: 'Wed, 16 Sep 2026 00:00:00 GMT',
      link: '</docs/guide#package-failure-reasons>; rel="successor-version", </docs/guide#package-failure-reasons>; rel="deprecation"',
    });
    expect(deprecationHeaders('gradual_rollout_frequency_seconds')).toEqual({
      deprecation: `@${Date.parse('2026-01-01T00:00:00Z') / 1000}`,
      link: '</docs/guide#deprecations-and-removals>; rel="deprecation"',
    });
  });
});
