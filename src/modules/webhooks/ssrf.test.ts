// SSRF at delivery time (issue 11, finding 3): the address is judged when the socket is opened, for every delivery.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createWebhook, expectOk } from '../../../test/factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { recordEvent } from '../../events/outbox.ts';
import { newId } from '../../shared/ids.ts';
import { createWorker } from '../../worker/loop.ts';
import { postJson } from './http-client.ts';

let t: TestApp;
let receiver: WebhookReceiver;
// The app allows private targets (so the subscription to 127.0.0.1 can be saved, as before a policy change)...
beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivateTargets: true });
});
afterAll(async () => t.close());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => receiver.close());

// ...and the worker runs with them disallowed, as after the operator turned WEBHOOKS_ALLOW_PRIVATE_TARGETS off.
const strictWorker = () => createWorker({ ...t.deps, config: { ...t.config, webhooksAllowPrivateTargets: false } }, { deliveryTimeoutMs: 2_000 });

async function deliverOneEvent(url: string) {
  const tenant = await t.createTenant();
  const hook = await createWebhook(tenant.admin, url);
  await t.deps.db.transaction((tx) =>
    recordEvent(tx, { tenantId: tenant.tenantId, actor: 'system', type: 'tour.created', resourceId: null, data: { tour_id: newId(), service_area_id: newId() }, at: t.clock.now() }),
  );
  await strictWorker().drain();
  const { deliveries } = await expectOk(tenant.admin.get(`/api/admin/webhooks/${hook.id}/deliveries`));
  return deliveries as { status: string; attempts: { status_code: number | null; error: string | null }[] }[];
}

describe('delivery-time address check', () => {
  it('does not connect to an IP-literal 127.0.0.1 subscription once private targets are disallowed, and records why', async () => {
    const deliveries = await deliverOneEvent(receiver.url);
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(receiver.received).toHaveLength(0);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.status).toBe('failed');
    expect(deliveries[0]!.attempts[0]).toMatchObject({ status_code: null });
    expect(deliveries[0]!.attempts[0]!.error).toMatch(/EPRIVATE.*127\.0\.0\.1.*loopback/);
  });

  it('does not connect to a name that resolves to loopback (localhost)', async () => {
    const deliveries = await deliverOneEvent(receiver.url.replace('127.0.0.1', 'localhost'));
    expect(receiver.received).toHaveLength(0);
    expect(deliveries[0]!.attempts[0]!.error).toMatch(/EPRIVATE/);
  });

  it.each(['http://[::ffff:127.0.0.1]:1/', 'http://[64:ff9b::7f00:1]:1/', 'http://[::127.0.0.1]:1/', 'http://[2002:7f00:1::]:1/', 'http://0x7f.1:1/'])(
    'refuses %s without opening a socket',
    async (url) => {
      const result = await postJson(url, '{}', {}, { allowPrivate: false, timeoutMs: 2_000 });
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/^EPRIVATE: not connecting/);
    },
  );

  it('still delivers to the same receiver while private targets are allowed (the check is the only difference)', async () => {
    const result = await postJson(receiver.url, '{}', {}, { allowPrivate: true, timeoutMs: 2_000 });
    expect(result.statusCode).toBe(200);
    expect(receiver.received).toHaveLength(1);
  });

  it('never follows a redirect', async () => {
    const target = await startWebhookReceiver();
    try {
      receiver.script({ status: 302, headers: { location: target.url } });
      const result = await postJson(receiver.url, '{}', {}, { allowPrivate: true, timeoutMs: 2_000 });
      expect(result.statusCode).toBe(302);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });
});
