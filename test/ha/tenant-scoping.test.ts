// The schema stays ready for tenant sharding (docs/scaling.md, decision 1406): every table's primary key, foreign key
// and unique index leads with tenant_id (or the table is a listed exception), and every statement the service runs
// through a representative run — the API, the worker, webhooks, live positions — filters by tenant_id, touches only
// the tenant table by its id, or is a listed cross-tenant statement with its reason.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';
import { createBooking, createPlace, createService, createUser, createWebhook, driveStop, expectOk, tourEnRoute } from '../factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.ts';
import { queryRows } from '../../src/db/sql.ts';
import { createWorker } from '../../src/worker/loop.ts';

/**
 * Keys and unique indexes that do not lead with tenant_id, and why (docs/scaling.md lists them too). `tenants` is
 * distributed by its own id, which is the tenant id; the two token indexes serve the lookups that find the tenant.
 */
const KEY_EXCEPTIONS: Record<string, string> = {
  tenants_pkey: 'tenants.id is the tenant id: the table is distributed by it',
  credentials_token_hash_key: 'a bearer token names no tenant: its hash finds the tenant (decision 1406: a token-to-tenant reference table on Citus)',
  booking_tracking_links_token_hash_key: 'a public tracking link names no tenant: its hash finds it (as for credentials)',
  recipient_addresses_token_hash_key: 'an unsubscribe link names no tenant: its hash finds it (as for tracking links)',
  // Regions belong to the installation, not a tenant (contract §14, decision 1501): reference tables on Citus.
  regions_pkey: 'regions are installation-wide: a reference table on Citus',
  regions_name_key: 'a region name is unique in the installation (regions are a reference table)',
  region_addresses_pkey: "a region's addresses: a reference table keyed by region_id",
  region_streets_pkey: "a region's streets: a reference table keyed by region_id",
  region_localities_pkey: "a region's cities and postcodes: a reference table keyed by region_id",
  region_road_graphs_pkey: "a region's road graph: a reference table keyed by region_id",
  region_tiles_z_x_y_region_id_pk: "a region's map tiles: a reference table keyed by tile and region_id",
  region_tiles_region_id_regions_id_fk: "a region's tiles belong to its region (both reference tables)",
  sign_in_links_token_hash_key: 'an invitation or first sign-in link names no tenant: its hash finds it (as for tracking links)',
};

/** Statements that run across tenants by design, each with why (decision 1406). Matched on the normalised text. */
const STATEMENT_EXCEPTIONS: { pattern: RegExp; why: string }[] = [
  { pattern: /\bfrom credentials c\b.*\bwhere c\.token_hash = \$1/, why: 'authentication: the token finds its tenant' },
  { pattern: /\bfrom "?booking_tracking_links"?\b.*\btoken_hash"? = \$1/, why: 'a public tracking link finds its tenant' },
  { pattern: /^select count\(\*\)::int from "tenants"$/, why: 'serve: is there any tenant yet (bootstrap)' },
  { pattern: /\bfrom jobs\b.*\bfor update skip locked\b/, why: 'the worker claims due jobs of every tenant (per shard on Citus)' },
  { pattern: /^insert into jobs\b.*\bon conflict\b/, why: 'periodic jobs: inserted with their tenant_id column' },
  { pattern: /\bfrom "?events"?\b.*\bdispatched_at"? is null\b/, why: 'the fan-out reads undispatched events of every tenant' },
  { pattern: /\bfrom "?webhook_deliveries"?\b.*\bfor update skip locked\b/, why: 'delivery lanes lease due deliveries of every tenant' },
  { pattern: /^insert into "tenants" \(/, why: 'a new tenant: the row carries its own id, the distribution column of tenants' },
  { pattern: /^select [^;]* from "tenants" where "tenants"\."id" = \$1$/, why: 'the tenant by its id (the distribution column of tenants)' },
  { pattern: /^select "id" from "tenants" where \$1 = any\("tenants"\."extensions"\)/, why: 'the busyness tick finds the tenants with the extension (a multi-shard read)' },
  { pattern: /^delete from "live_tickets" where "live_tickets"\."expires_at" < \$1$/, why: 'expired live tickets of every tenant are purged (a multi-shard delete)' },
  { pattern: /^select tenant_id, id from webhook_subscriptions where \(secret not like/, why: 'a worker start seals secrets stored in plain text by old versions, in every tenant (decision 0207)' },
  { pattern: /^delete from driver_positions where \(tenant_id, id\) in \( select tenant_id, id from driver_positions where received_at < \$1/, why: 'position retention purges every tenant in batches (a multi-shard delete)' },
  { pattern: /^select pg_notify\(/, why: 'no table: a live position notice' },
  { pattern: /\bfrom "proof_files" where \("proof_files"\."deleted_at" is null and "proof_files"\."created_at" < \$1\)/, why: 'proof retention finds the expired files of every tenant (a multi-shard read, decision 1250)' },
  { pattern: /\bfrom "service_areas" where cardinality\("service_areas"\."recipient_notifications"\) > 0$/, why: 'the recipient e-mail sweep finds the areas that tell their recipients, in every tenant (decision 1104)' },
  { pattern: /\bfrom "recipient_messages" where \("recipient_messages"\."channel" = \$1 and "recipient_messages"\."to" = \$2\)/, why: 'an SMS reply names only the number: the tenant that last texted it (a multi-shard read, decision 1764)' },
  { pattern: /^select distinct "tenant_id", "booking_id" from "recipient_messages" where \(?"recipient_messages"\."created_at" < \$1\b/, why: 'recipient-data retention pages through the bookings of every tenant with old messages (a multi-shard read, decision 1773)' },
  { pattern: /^select 1$|^select pg_current_wal_lsn|^select pg_last_wal_replay_lsn|pg_advisory_xact_lock|^(begin|commit|rollback|savepoint|release savepoint)\b/, why: 'no table' },
  { pattern: /drizzle\.__drizzle_migrations|to_regclass/, why: 'migrations bookkeeping' },
  { pattern: /^select [^;]* from regions where min_lat <= \$1 and max_lat >= \$2 and min_lng <= \$3 and max_lng >= \$4\b/, why: 'the region that contains a point: regions are installation-wide reference tables (decision 1501)' },
  { pattern: /^select insert_new_booking\(\$1::json, /, why: 'a new booking: every row it inserts carries its tenant_id column (the function, migration 0012)' },
];

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Scoped to a tenant: an insert that writes the tenant_id column, or a statement with a tenant_id predicate
 * (`tenant_id = …`, `tenant_id IN …`, `(tenant_id, id) IN …`). Merely naming the column (in a select list, a
 * RETURNING, a join of two tenant-scoped tables) is not enough.
 */
const SCOPED = [/^(with \w+ as \()?insert into "?\w+"? \([^)]*"?tenant_id"?/, /tenant_id"? (=|in\b|<>)/, /\(("?\w+"?\.)?"?tenant_id"?, [^)]*\) (=|in\b)/];
/** `(tenant_id, id) IN (SELECT tenant_id, id FROM … )` is a self-join of a claim, not a tenant filter. */
const SELF_JOIN = /\(tenant_id, id\) in \( ?select tenant_id, id from/;
const scoped = (text: string) => !SELF_JOIN.test(text) && SCOPED.some((pattern) => pattern.test(text));

describe('keys and unique indexes lead with tenant_id', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('every primary key, foreign key and unique index, or a listed exception', async () => {
    const rows = await queryRows<{ name: string; table_name: string; first: string }>(
      t.deps.db,
      sql`SELECT i.relname AS name, c.relname AS table_name, a.attname AS first
            FROM pg_index x
            JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = x.indkey[0]
           WHERE n.nspname = 'public' AND (x.indisunique OR x.indisprimary)
          UNION ALL
          SELECT con.conname, c.relname, a.attname
            FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = con.conkey[1]
           WHERE n.nspname = 'public' AND con.contype = 'f'`,
    );
    expect(rows.length).toBeGreaterThan(30);
    const offending = rows.filter((row) => row.first !== 'tenant_id' && !KEY_EXCEPTIONS[row.name]).map((row) => `${row.table_name}.${row.name} (${row.first})`);
    expect(offending).toEqual([]);
    // Every exception still exists: a fixed one leaves the list.
    for (const name of Object.keys(KEY_EXCEPTIONS)) expect(rows.map((row) => row.name)).toContain(name);
    const tables = await queryRows<{ table_name: string }>(
      t.deps.db,
      sql`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name HAVING bool_and(column_name <> 'tenant_id')`,
    );
    // Only the tenants themselves and the installation's regions (reference tables, decision 1501) have no tenant_id.
    expect(tables.map((row) => row.table_name).sort()).toEqual(['region_addresses', 'region_localities', 'region_road_graphs', 'region_streets', 'region_tiles', 'regions', 'tenants']);
  });
});

// The statements are captured at the driver (node-postgres), so this part needs PostgreSQL; on PGlite it is skipped.
describe.skipIf(!process.env.TEST_DATABASE_URL)('every statement of a representative run filters by tenant_id (PostgreSQL)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const captured: string[] = [];
  const original = pg.Client.prototype.query;

  beforeAll(async () => {
    t = await buildTestApp();
    receiver = await startWebhookReceiver();
    // Every query of every client of this process from here on: the app's pool, its transactions, the worker.
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
      if (text) captured.push(text);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
  });
  afterAll(async () => {
    pg.Client.prototype.query = original;
    await receiver?.close();
    await t?.close();
  });

  it('through the API, the worker, webhooks and live positions', { timeout: 120_000 }, async () => {
    const tenant = await t.createTenant();
    const admin = tenant.admin;
    await createWebhook(admin, `${receiver.url}/all`);
    const service = await createService(admin);
    const place = await createPlace(admin);
    const booking = await createBooking(admin, { service_id: service.id });
    const driver = await createUser(admin, { role: 'driver' });
    const tour = await tourEnRoute(admin, [booking.id], driver.id);
    await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: 52.49, lng: 13.4, recorded_at: t.clock.now().toISOString() } }));
    await driveStop(driver.client, tour.stops[0].id, 'completed');
    for (const path of ['/api/users', '/api/organizations', '/api/places', `/api/places/${place.id}`, '/api/hailing/bookings', `/api/hailing/bookings/${booking.id}`, '/api/hailing/tours', `/api/hailing/tours/${tour.id}`, `/api/hailing/tours/${tour.id}/positions`, '/api/events', '/api/admin/webhooks', '/api/admin/api_keys', '/api/reports']) {
      const response = await admin.get(path);
      expect(response.status, path).toBeLessThan(500);
    }
    await createWorker(t.deps, { deliveryTimeoutMs: 5_000 }).drain();
    await receiver.waitFor(1, 30_000);

    const statements = [...new Set(captured.map(normalise))];
    expect(statements.length).toBeGreaterThan(40);
    const unscoped = statements.filter((text) => !scoped(text) && !STATEMENT_EXCEPTIONS.some((e) => e.pattern.test(text)));
    expect(unscoped).toEqual([]);
  });
});
