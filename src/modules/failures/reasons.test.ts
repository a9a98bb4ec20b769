import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createUser } from '../../../test/factories.ts';
import { DEFAULT_PACKAGE_FAILURE_REASONS, STOP_FAILURE_REASONS } from './reasons.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const newReason = {
  key: 'dog',
  labels: { en: 'Dangerous dog', de: 'Gefährlicher Hund' },
  applies_to: { stop_types: ['dropoff'], package_interactions: ['delivery'] },
  properties: { note_required: true },
};

describe('package failure reasons', () => {
  it('seeds the default reasons on tenant creation, in the current shape', async () => {
    const { admin } = await t.createTenant();
    const res = await admin.get('/api/reasons/package_failure');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ next_cursor: null, has_more: false });
    expect(res.body.reasons.map((r: { key: string }) => r.key)).toEqual(DEFAULT_PACKAGE_FAILURE_REASONS.map((r) => r.key));
    expect(res.body.reasons[0]).toEqual({
      category: 'package_failure',
      key: 'recipient_absent',
      label: 'Recipient not present',
      applies_to: { stop_types: ['dropoff'], package_interactions: ['delivery'] },
      properties: { note_required: false, triggers_reattempt: true },
    });
  });

  it('localizes labels by Accept-Language', async () => {
    const { admin } = await t.createTenant();
    const res = await admin.get('/api/reasons/package_failure', { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(res.body.reasons[0].label).toBe('Empfänger nicht angetroffen');
  });

  it('keeps each tenant’s reasons to itself', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    expect((await a.admin.post('/api/admin/reasons/package_failure', { reason: newReason })).status).toBe(201);
    const keys = (await b.admin.get('/api/reasons/package_failure')).body.reasons.map((r: { key: string }) => r.key);
    expect(keys).not.toContain('dog');
  });
});

describe('legacy GET /api/hailing/failure_reasons', () => {
  it('maps every reason to the legacy shape exactly as docs/api-guide.md "Failed stops" says, with deprecation headers', async () => {
    const { admin } = await t.createTenant();
    const current = (await admin.get('/api/reasons/package_failure', { headers: { 'accept-language': 'de' } })).body.reasons;
    const res = await admin.get('/api/hailing/failure_reasons', { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(200);
    expect(res.body.failure_reasons).toEqual(
      current.map((r: { key: string; label: string; applies_to: { package_interactions: string[] }; properties: Record<string, boolean> }) => ({
        id: r.key,
        title: r.label,
        applies_to: r.applies_to.package_interactions,
        note_required: r.properties.note_required,
        triggers_reattempt: r.properties.triggers_reattempt,
      })),
    );
    expect(res.body.failure_reasons[3]).toEqual({
      id: 'damaged',
      title: 'Paket beschädigt',
      applies_to: ['pickup', 'delivery'],
      note_required: true,
      triggers_reattempt: false,
    });
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.sunset).toBe('Wed, 16 Sep 2026 00:00:00 GMT');
    expect(res.headers.link).toBe('</docs/guide#package-failure-reasons>; rel="successor-version", </docs/guide#package-failure-reasons>; rel="deprecation"');
  });

  it('answers 404 removed past 2026-09-16 when the tenant enforces sunsets, and keeps working when it does not', async () => {
    const { admin } = await t.createTenant();
    t.clock.set('2026-09-16T00:00:00Z');
    try {
      expect((await admin.get('/api/hailing/failure_reasons')).status).toBe(200);
      expect((await admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } })).status).toBe(200);
      const removed = await admin.get('/api/hailing/failure_reasons');
      expect(removed.status).toBe(404);
      expect(removed.body).toMatchObject({ error_code: 'removed', removed_on: '2026-09-16', successor: '/api/reasons/package_failure' });
      t.clock.set('2026-09-15T23:59:59Z');
      expect((await admin.get('/api/hailing/failure_reasons')).status).toBe(200);
    } finally {
      t.clock.set('2026-06-01T08:00:00Z');
    }
  });
});

describe('stop failure reasons', () => {
  it('lists the platform catalogue, localized', async () => {
    const { admin } = await t.createTenant();
    const res = await admin.get('/api/reasons/stop_failure', { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(200);
    expect(res.body.reasons).toHaveLength(STOP_FAILURE_REASONS.length);
    expect(res.body.reasons[0]).toMatchObject({ category: 'stop_failure', key: 'customer_absent', label: 'Niemand angetroffen' });
  });
});

describe('admin management of package failure reasons', () => {
  it('creates a reason that every caller then reads, last in order, with both labels in the admin view', async () => {
    const { admin } = await t.createTenant();
    const created = await admin.post('/api/admin/reasons/package_failure', { reason: newReason });
    expect(created.status).toBe(201);
    expect(created.body.reason).toEqual({
      category: 'package_failure',
      key: 'dog',
      label: 'Dangerous dog',
      labels: { en: 'Dangerous dog', de: 'Gefährlicher Hund' },
      applies_to: { stop_types: ['dropoff'], package_interactions: ['delivery'] },
      properties: { note_required: true, triggers_reattempt: false },
    });
    const list = (await admin.get('/api/reasons/package_failure')).body.reasons;
    expect(list[list.length - 1].key).toBe('dog');
    expect((await admin.get('/api/admin/reasons/package_failure/dog')).body.reason.labels.de).toBe('Gefährlicher Hund');
    expect((await admin.get('/api/admin/reasons/package_failure')).body.reasons).toHaveLength(DEFAULT_PACKAGE_FAILURE_REASONS.length + 1);
  });

  it('uses the English label in German until one is given', async () => {
    const { admin } = await t.createTenant();
    await admin.post('/api/admin/reasons/package_failure', { reason: { ...newReason, labels: { en: 'Dog' } } });
    const res = await admin.get('/api/reasons/package_failure', { headers: { 'accept-language': 'de' } });
    expect(res.body.reasons.find((r: { key: string }) => r.key === 'dog').label).toBe('Dog');
  });

  it('refuses a key that exists with 422 taken', async () => {
    const { admin } = await t.createTenant();
    const res = await admin.post('/api/admin/reasons/package_failure', { reason: { ...newReason, key: 'damaged' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/reason/key', code: 'taken' })]);
  });

  it('validates the body: key format, empty applies_to, unknown interaction, unknown field', async () => {
    const { admin } = await t.createTenant();
    const cases: [unknown, string][] = [
      [{ ...newReason, key: 'Has Spaces' }, '/reason/key'],
      [{ ...newReason, applies_to: { stop_types: [], package_interactions: ['delivery'] } }, '/reason/applies_to/stop_types'],
      [{ ...newReason, applies_to: { stop_types: ['dropoff'], package_interactions: ['teleport'] } }, '/reason/applies_to/package_interactions/0'],
      [{ ...newReason, colour: 'red' }, '/reason/colour'],
    ];
    for (const [reason, pointer] of cases) {
      const res = await admin.post('/api/admin/reasons/package_failure', { reason });
      expect(res.status, pointer).toBe(422);
      expect(res.body.error_code).toBe('validation_failed');
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
  });

  it('changes only the fields given, with PATCH and PUT alike', async () => {
    const { admin } = await t.createTenant();
    const patched = await admin.patch('/api/admin/reasons/package_failure/damaged', { reason: { properties: { triggers_reattempt: true } } });
    expect(patched.status).toBe(200);
    expect(patched.body.reason).toMatchObject({
      label: 'Package damaged',
      applies_to: { stop_types: ['pickup', 'dropoff'], package_interactions: ['pickup', 'delivery'] },
      properties: { note_required: true, triggers_reattempt: true },
    });
    const put = await admin.put('/api/admin/reasons/package_failure/damaged', { reason: { labels: { de: 'Beschädigt' }, applies_to: { stop_types: ['dropoff'] } } });
    expect(put.body.reason).toMatchObject({
      labels: { en: 'Package damaged', de: 'Beschädigt' },
      applies_to: { stop_types: ['dropoff'], package_interactions: ['pickup', 'delivery'] },
      properties: { note_required: true, triggers_reattempt: true },
    });
    expect((await admin.get('/api/hailing/failure_reasons')).body.failure_reasons[3]).toMatchObject({ id: 'damaged', triggers_reattempt: true });
  });

  it('deletes a reason; a second delete and reads of it are 404', async () => {
    const { admin } = await t.createTenant();
    expect((await admin.delete('/api/admin/reasons/package_failure/other')).status).toBe(204);
    expect((await admin.delete('/api/admin/reasons/package_failure/other')).status).toBe(404);
    expect((await admin.get('/api/admin/reasons/package_failure/other')).status).toBe(404);
    expect((await admin.patch('/api/admin/reasons/package_failure/other', { reason: {} })).status).toBe(404);
    const keys = (await admin.get('/api/reasons/package_failure')).body.reasons.map((r: { key: string }) => r.key);
    expect(keys).not.toContain('other');
  });

  it('is for admins only: others read reasons but may not manage them (403)', async () => {
    const { admin } = await t.createTenant();
    for (const role of ['manager', 'driver', 'customer'] as const) {
      const user = await createUser(admin, { role });
      expect((await user.client.get('/api/reasons/package_failure')).status, role).toBe(200);
      expect((await user.client.get('/api/reasons/stop_failure')).status, role).toBe(200);
      expect((await user.client.get('/api/admin/reasons/package_failure')).status, role).toBe(403);
      expect((await user.client.post('/api/admin/reasons/package_failure', { reason: newReason })).status, role).toBe(403);
      expect((await user.client.patch('/api/admin/reasons/package_failure/damaged', { reason: {} })).status, role).toBe(403);
      expect((await user.client.delete('/api/admin/reasons/package_failure/damaged')).status, role).toBe(403);
    }
  });

  it('answers 404 for another tenant’s custom reason', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    await a.admin.post('/api/admin/reasons/package_failure', { reason: newReason });
    expect((await b.admin.get('/api/admin/reasons/package_failure/dog')).status).toBe(404);
  });
});
