// The commands that work on the database directly, on the machine that owns it: migrate, tenant create, admin-key create.
import { ConfigError, loadConfig } from '../config.ts';
import { createAdminKey, createTenant } from '../modules/identity/index.ts';
import { createLogger, createRuntime, describeDatabase, type Runtime } from '../runtime.ts';
import { CliError } from './cli-error.ts';

/** Opens the database with progress on stderr (stdout carries the command's result), runs `work`, closes. */
async function withDatabase<T>(migrate: boolean, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const log = await createLogger(config, 2);
  const runtime = await createRuntime(config, { migrate: migrate || !config.databaseUrl, log, announce: true });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

export async function migrate(): Promise<void> {
  await withDatabase(true, async ({ deps, migrated }) => {
    const { config } = deps;
    const where = config.databaseUrl ? describeDatabase(config) : `${describeDatabase(config)} (DATA_DIR; set DATABASE_URL to migrate a PostgreSQL server)`;
    console.log(`Migrated ${where}: ${migrated === 0 ? 'nothing was pending' : `${migrated} migration(s) applied`}; it is up to date.`);
  });
}

export async function createTenantCommand(values: { name?: string; extension?: string[]; json?: boolean }): Promise<void> {
  if (!values.name) throw new ConfigError('tenant create needs --name');
  for (const ext of values.extension ?? []) if (ext !== 'busyness') throw new ConfigError(`unknown extension ${ext} (known: busyness)`);
  const name = values.name;
  await withDatabase(false, async ({ deps }) => {
    const created = await createTenant(deps, { name, extensions: (values.extension ?? []) as 'busyness'[] });
    if (values.json) {
      console.log(JSON.stringify({ tenant_id: created.tenant.id, admin_user_id: created.admin_user_id, admin_token: created.admin_token }));
    } else {
      console.log(`Tenant ${created.tenant.id} (${created.tenant.name}); admin user ${created.admin_user_id}`);
      console.log(`Admin token (shown once): ${created.admin_token}`);
    }
  });
}

export async function createAdminKeyCommand(values: { tenant?: string; json?: boolean }): Promise<void> {
  await withDatabase(false, async ({ deps }) => {
    const result = await createAdminKey(deps, values.tenant ?? null);
    if (!result.ok) {
      const list = result.tenants.map((t) => `\n  ${t.id}  ${t.name}`).join('');
      const messages = {
        no_tenant: 'there is no tenant yet: `npx tourbook serve` creates the first one (or use `tourbook tenant create --name N`)',
        unknown_tenant: `no tenant ${values.tenant}; the tenants are:${list}`,
        several_tenants: `there are several tenants; choose one with --tenant ID:${list}`,
        no_active_admin: `tenant ${values.tenant ?? result.tenants[0]?.id} has no active admin`,
      };
      throw new CliError(messages[result.reason]);
    }
    if (values.json) {
      console.log(JSON.stringify({ tenant_id: result.tenant_id, user_id: result.user_id, api_key_id: result.api_key_id, admin_token: result.token }));
    } else {
      console.log(`New admin API key for tenant ${result.tenant_id} (${result.tenant_name}), admin user ${result.user_id}`);
      console.log(`Admin token (shown once): ${result.token}`);
    }
  });
}
