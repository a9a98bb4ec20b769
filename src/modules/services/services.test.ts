import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createSchedulingConfig, createService, createServiceArea, createUser, expectOk } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const ALL = ['skip_recovery', 'reattempt_later', 'reattempt_now', 'return_later', 'return_now'];

describe('tour services', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  it('creates a service with every default of the contract', async () => {
    const area = await createServiceArea(tenant.admin);
    const res = await tenant.admin.post('/api/admin/hailing/services', { service: { name: 'Same day', service_area_id: area.id } });
    expect(res.status).toBe(201);
    expect(res.body.service).toEqual({
      id: expect.any(String),
      name: 'Same day',
      service_area_id: area.id,
      dispatch_mode: 'manual',
      tip_distribution_strategy: 'noop',
      stop_types: ['pickup', 'dropoff', 'task', 'return'],
      return_stop_type: 'return',
      max_stops_per_booking: 25,
      max_stops_per_tour: 100,
      failure_outcomes: { admin: ALL, manager: ALL, driver: ALL },
      force_delivery_proof: [],
      scheduling_config_id: null,
      created_at: t.clock.now().toISOString(),
    });
    expect((await tenant.admin.get(`/api/admin/hailing/services/${res.body.service.id}`)).body.service).toEqual(res.body.service);
  });

  it('sets the tip distribution strategy with PUT, changing only the given fields', async () => {
    const service = await createService(tenant.admin, { max_stops_per_tour: 40 });
    const res = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { tip_distribution_strategy: 'completed_dropoffs_on_tour' } });
    expect(res.status).toBe(200);
    expect(res.body.service).toEqual({ ...service, tip_distribution_strategy: 'completed_dropoffs_on_tour' });
    const shown = await expectOk(tenant.admin.get(`/api/admin/hailing/services/${service.id}`));
    expect(shown.service.tip_distribution_strategy).toBe('completed_dropoffs_on_tour');
    expect(shown.service.max_stops_per_tour).toBe(40);
  });

  it('rejects an unknown tip distribution strategy with 422 pointing at the field, on create and update', async () => {
    const area = await createServiceArea(tenant.admin);
    const create = await tenant.admin.post('/api/admin/hailing/services', { service: { name: 'S', service_area_id: area.id, tip_distribution_strategy: 'even_split' } });
    expect(create.status).toBe(422);
    expect(create.body.errors).toEqual([expect.objectContaining({ pointer: '/service/tip_distribution_strategy' })]);
    const service = await createService(tenant.admin);
    const update = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { tip_distribution_strategy: 'even_split' } });
    expect(update.status).toBe(422);
    expect(update.body.errors[0].pointer).toBe('/service/tip_distribution_strategy');
    expect((await expectOk(tenant.admin.get(`/api/admin/hailing/services/${service.id}`))).service.tip_distribution_strategy).toBe('noop');
  });

  it('keeps return_stop_type within stop_types', async () => {
    const service = await createService(tenant.admin);
    const dropsReturn = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { stop_types: ['pickup', 'dropoff'] } });
    expect(dropsReturn.status).toBe(422);
    expect(dropsReturn.body.errors[0]).toMatchObject({ pointer: '/service/return_stop_type', code: 'invalid_value' });
    const disables = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { stop_types: ['pickup', 'dropoff'], return_stop_type: null } });
    expect(disables.status).toBe(200);
    expect(disables.body.service).toMatchObject({ stop_types: ['pickup', 'dropoff'], return_stop_type: null });
    const unknown = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { return_stop_type: 'back' } });
    expect(unknown.status).toBe(422);
  });

  it('disables returns when created with stop types that lack return', async () => {
    const service = await createService(tenant.admin, { stop_types: ['pickup', 'dropoff'] });
    expect(service.return_stop_type).toBeNull();
  });

  it('accepts stop types as [a-z_]{1,11} slugs only', async () => {
    const service = await createService(tenant.admin);
    for (const bad of ['Pickup', 'drop-off', 'twelve_chars', '']) {
      const res = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { stop_types: ['pickup', bad] } });
      expect(res.status, bad).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/service/stop_types/1');
    }
    const ok = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { stop_types: ['pickup', 'dropoff', 'return', 'eleven_char'] } });
    expect(ok.status).toBe(200);
  });

  it('replaces failure outcomes per given role and keeps the others', async () => {
    const service = await createService(tenant.admin);
    const res = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { failure_outcomes: { driver: ['skip_recovery'] } } });
    expect(res.body.service.failure_outcomes).toEqual({ admin: ALL, manager: ALL, driver: ['skip_recovery'] });
    const bad = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { failure_outcomes: { driver: ['give_up'] } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe('/service/failure_outcomes/driver/0');
  });

  it('stores force_delivery_proof kinds and a scheduling config', async () => {
    const config = await createSchedulingConfig(tenant.admin);
    const service = await createService(tenant.admin, { force_delivery_proof: ['signature', 'photo'], scheduling_config_id: config.id, dispatch_mode: 'auto' });
    expect(service).toMatchObject({ force_delivery_proof: ['signature', 'photo'], scheduling_config_id: config.id, dispatch_mode: 'auto' });
    const bad = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { force_delivery_proof: ['fingerprint'] } });
    expect(bad.status).toBe(422);
  });

  it('rejects unknown service areas and scheduling configs as unknown_reference', async () => {
    const res = await tenant.admin.post('/api/admin/hailing/services', { service: { name: 'S', service_area_id: '01890000-0000-7000-8000-000000000000' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/service/service_area_id', code: 'unknown_reference' });
    const service = await createService(tenant.admin);
    const config = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { scheduling_config_id: '01890000-0000-7000-8000-000000000000' } });
    expect(config.body.errors[0]).toMatchObject({ pointer: '/service/scheduling_config_id', code: 'unknown_reference' });
  });

  it('lists services newest first with cursor pagination', async () => {
    const own = await t.createTenant();
    const a = await createService(own.admin);
    const b = await createService(own.admin);
    const first = await expectOk(own.admin.get('/api/admin/hailing/services?limit=1'));
    expect(first.services.map((s: { id: string }) => s.id)).toEqual([b.id]);
    const second = await expectOk(own.admin.get(`/api/admin/hailing/services?limit=1&cursor=${first.meta.next_cursor}`));
    expect(second.services.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect(second.meta.has_more).toBe(false);
  });

  it('lets managers read services but not write them; drivers and customers neither', async () => {
    const service = await createService(tenant.admin);
    const manager = await createUser(tenant.admin, { role: 'manager' });
    expect((await manager.client.get(`/api/admin/hailing/services/${service.id}`)).status).toBe(200);
    expect((await manager.client.get('/api/admin/hailing/services')).status).toBe(200);
    expect((await manager.client.put(`/api/admin/hailing/services/${service.id}`, { service: { name: 'x' } })).status).toBe(403);
    expect((await manager.client.post('/api/admin/hailing/services', { service: { name: 'x', service_area_id: service.service_area_id } })).status).toBe(403);
    for (const role of ['driver', 'customer'] as const) {
      const user = await createUser(tenant.admin, { role });
      const res = await user.client.get(`/api/admin/hailing/services/${service.id}`);
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('forbidden');
    }
  });

  it("answers 404 for another tenant's service", async () => {
    const other = await t.createTenant();
    const service = await createService(tenant.admin);
    expect((await other.admin.get(`/api/admin/hailing/services/${service.id}`)).status).toBe(404);
    expect((await other.admin.put(`/api/admin/hailing/services/${service.id}`, { service: { name: 'x' } })).status).toBe(404);
  });
});

describe('scheduling configs', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  it('creates a config with a 900 s claim window, accepting gradual_rollout_frequency_seconds and returning it null', async () => {
    const res = await tenant.admin.post('/api/admin/hailing/scheduling_configs', { scheduling_config: { name: 'Default', gradual_rollout_frequency_seconds: 300 } });
    expect(res.status).toBe(201);
    expect(res.body.scheduling_config).toEqual({
      id: expect.any(String),
      name: 'Default',
      mode: 'instant',
      claim_window_seconds: 900,
      gradual_rollout_frequency_seconds: null,
      created_at: t.clock.now().toISOString(),
    });
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
  });

  it('ignores gradual_rollout_frequency_seconds on update, changes the given fields, and marks every answer deprecated', async () => {
    const config = await createSchedulingConfig(tenant.admin);
    const res = await tenant.admin.put(`/api/admin/hailing/scheduling_configs/${config.id}`, {
      scheduling_config: { mode: 'scheduled', claim_window_seconds: 600, gradual_rollout_frequency_seconds: 120 },
    });
    expect(res.status).toBe(200);
    expect(res.body.scheduling_config).toEqual({ ...config, mode: 'scheduled', claim_window_seconds: 600, gradual_rollout_frequency_seconds: null });
    const nulled = await tenant.admin.put(`/api/admin/hailing/scheduling_configs/${config.id}`, { scheduling_config: { gradual_rollout_frequency_seconds: null } });
    expect(nulled.status).toBe(200);
    const shown = await tenant.admin.get(`/api/admin/hailing/scheduling_configs/${config.id}`);
    expect(shown.body.scheduling_config.gradual_rollout_frequency_seconds).toBeNull();
    expect(shown.headers.deprecation).toBeTruthy();
    const list = await tenant.admin.get('/api/admin/hailing/scheduling_configs');
    expect(list.body.scheduling_configs[0]).toMatchObject({ id: config.id, gradual_rollout_frequency_seconds: null });
    expect(list.headers.deprecation).toBeTruthy();
  });

  it('rejects a non-integer gradual_rollout_frequency_seconds and unknown modes', async () => {
    const res = await tenant.admin.post('/api/admin/hailing/scheduling_configs', { scheduling_config: { name: 'x', gradual_rollout_frequency_seconds: 'often', mode: 'lazy' } });
    expect(res.status).toBe(422);
    const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer).sort();
    expect(pointers).toEqual(['/scheduling_config/gradual_rollout_frequency_seconds', '/scheduling_config/mode']);
  });

  it('is admin-written and manager-read, and isolated per tenant', async () => {
    const config = await createSchedulingConfig(tenant.admin);
    const manager = await createUser(tenant.admin, { role: 'manager' });
    expect((await manager.client.get(`/api/admin/hailing/scheduling_configs/${config.id}`)).status).toBe(200);
    expect((await manager.client.put(`/api/admin/hailing/scheduling_configs/${config.id}`, { scheduling_config: { name: 'm' } })).status).toBe(403);
    const other = await t.createTenant();
    expect((await other.admin.get(`/api/admin/hailing/scheduling_configs/${config.id}`)).status).toBe(404);
    expect((await other.admin.put(`/api/admin/hailing/scheduling_configs/${config.id}`, { scheduling_config: { name: 'o' } })).status).toBe(404);
  });
});
