// The position buffer's rules: one fix per interval, sent oldest first in batches of one tour, kept while the
// connection is away, the fixes the API names as bad dropped and the others sent again.
import { describe, expect, it } from 'vitest';
import { badFixes, MAX_WAITING, PositionBuffer, type Fix, type FixSender, type SendOutcome } from './positions.ts';

const fix = (tourId: string, second: number): Fix => ({ tourId, lat: 52.5 + second / 10_000, lng: 13.4, recorded_at: new Date(Date.UTC(2026, 10, 26, 8, 0, second)).toISOString() });

function sender(answer: (tourId: string, fixes: Fix[]) => SendOutcome) {
  const calls: { tourId: string; seconds: number[] }[] = [];
  const send: FixSender = async (tourId, fixes) => {
    calls.push({ tourId, seconds: fixes.map((f) => new Date(f.recorded_at).getUTCSeconds()) });
    return answer(tourId, fixes);
  };
  return { calls, send };
}

describe('the position buffer', () => {
  it('keeps one fix per interval by the fix time', () => {
    const buffer = new PositionBuffer(() => undefined, [], 10_000);
    expect([0, 5, 10, 19, 20].map((s) => buffer.record(fix('t', s)))).toEqual([true, false, true, false, true]);
  });

  it('sends what waited in one request per tour, oldest first, and forgets what was sent', async () => {
    const saved: Fix[][] = [];
    const buffer = new PositionBuffer((fixes) => saved.push(fixes), [fix('a', 0), fix('a', 10), fix('a', 20), fix('b', 30), fix('b', 40)]);
    const { calls, send } = sender(() => ({ kind: 'sent' }));
    await buffer.flush(send);
    expect(calls).toEqual([
      { tourId: 'a', seconds: [0, 10, 20] },
      { tourId: 'b', seconds: [30, 40] },
    ]);
    expect(buffer.waiting).toEqual([]);
    expect(saved.at(-1)).toEqual([]);
  });

  it('keeps every fix while the connection is away, and sends them all once it is back', async () => {
    const buffer = new PositionBuffer(() => undefined, [], 10_000);
    let online = false;
    const { calls, send } = sender(() => (online ? { kind: 'sent' } : { kind: 'retry' }));
    for (let s = 0; s < 60; s += 10) {
      buffer.record(fix('a', s));
      await buffer.flush(send);
    }
    expect(buffer.waiting).toHaveLength(6);
    online = true;
    await buffer.flush(send);
    expect(calls.at(-1)).toEqual({ tourId: 'a', seconds: [0, 10, 20, 30, 40, 50] });
    expect(buffer.waiting).toEqual([]);
  });

  it('drops the fixes the API names as bad and sends the others again; a refusal naming none drops the batch', async () => {
    const buffer = new PositionBuffer(() => undefined, [fix('a', 0), fix('a', 10), fix('a', 20), fix('b', 30), fix('b', 40)]);
    const { calls, send } = sender((tourId, fixes) => {
      if (tourId === 'b') return { kind: 'dropped' };
      return fixes.length === 3 ? { kind: 'dropped', bad: [1] } : { kind: 'sent' };
    });
    await buffer.flush(send);
    expect(calls).toEqual([
      { tourId: 'a', seconds: [0, 10, 20] },
      { tourId: 'a', seconds: [0, 20] },
      { tourId: 'b', seconds: [30, 40] },
    ]);
    expect(buffer.waiting).toEqual([]);
  });

  it('keeps at most two hours of fixes, the newest', () => {
    const buffer = new PositionBuffer(() => undefined, [], 1);
    for (let i = 0; i < MAX_WAITING + 5; i++) buffer.record({ ...fix('a', 0), recorded_at: new Date(Date.UTC(2026, 10, 26) + i * 1000).toISOString() });
    expect(buffer.waiting).toHaveLength(MAX_WAITING);
    expect(buffer.waiting[0]!.recorded_at).toBe(new Date(Date.UTC(2026, 10, 26) + 5000).toISOString());
  });
});

describe('badFixes', () => {
  it('reads the fixes a 422 names by their pointers', () => {
    const problem = { errors: [{ pointer: '/locations/3/lat' }, { pointer: '/locations/3/lng' }, { pointer: '/locations/0' }, { pointer: '/locations' }, { pointer: '/location/lat' }] };
    expect(badFixes(problem)).toEqual([3, 0]);
    expect(badFixes(null)).toEqual([]);
    expect(badFixes({ errors: 'no' })).toEqual([]);
  });
});
