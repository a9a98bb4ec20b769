// Configuration: environment variables parsed once into a typed, frozen Config; bad values stop the process.
import path from 'node:path';

export type Role = 'api' | 'worker' | 'all';

export interface Config {
  databaseUrl: string | null;
  dataDir: string;
  port: number;
  host: string;
  role: Role;
  smtpUrl: string | null;
  mailFrom: string;
  reportsMasterKey: string | null;
  /** More master keys that may open (never seal) file keys: during a key rotation (docs/operations.md). */
  reportsAcceptedMasterKeys: string[];
  reportMaxBytes: number;
  reportRetentionDays: number;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | null;
  osrmUrl: string | null;
  webhooksAllowPrivateTargets: boolean;
  logLevel: string;
  operatorToken: string | null;
  bootstrapAdminToken: string | null;
  rateLimit: { perSecond: number; burst: number };
  busynessIntervalSeconds: number;
  publicUrl: string | null;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function str(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const role = (str(env, 'ROLE') ?? 'all') as Role;
  if (!['api', 'worker', 'all'].includes(role)) throw new ConfigError(`ROLE must be api, worker or all, got "${role}"`);
  const databaseUrl = str(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// connection string');
  }
  const masterKey = str(env, 'REPORTS_MASTER_KEY');
  if (masterKey && Buffer.from(masterKey, 'base64').length !== 32) {
    throw new ConfigError('REPORTS_MASTER_KEY must be a base64-encoded 256-bit key');
  }
  const acceptedKeys = (str(env, 'REPORTS_ACCEPTED_MASTER_KEYS') ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  if (acceptedKeys.some((k) => Buffer.from(k, 'base64').length !== 32)) {
    throw new ConfigError('REPORTS_ACCEPTED_MASTER_KEYS must be comma-separated base64-encoded 256-bit keys');
  }
  const s3Endpoint = str(env, 'S3_ENDPOINT');
  const config: Config = {
    databaseUrl,
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './data'),
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    role,
    smtpUrl: str(env, 'SMTP_URL'),
    mailFrom: str(env, 'MAIL_FROM') ?? 'Tourbook <no-reply@tourbook.local>',
    reportsMasterKey: masterKey,
    reportsAcceptedMasterKeys: acceptedKeys,
    reportMaxBytes: int(env, 'REPORT_MAX_BYTES', 50 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    reportRetentionDays: int(env, 'REPORT_RETENTION_DAYS', 30, 1, 366),
    s3: s3Endpoint
      ? {
          endpoint: s3Endpoint,
          bucket: str(env, 'S3_BUCKET') ?? 'tourbook',
          region: str(env, 'S3_REGION') ?? 'us-east-1',
          accessKeyId: str(env, 'S3_ACCESS_KEY_ID') ?? '',
          secretAccessKey: str(env, 'S3_SECRET_ACCESS_KEY') ?? '',
        }
      : null,
    osrmUrl: str(env, 'OSRM_URL'),
    webhooksAllowPrivateTargets: bool(env, 'WEBHOOKS_ALLOW_PRIVATE_TARGETS', false),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    operatorToken: str(env, 'OPERATOR_TOKEN'),
    bootstrapAdminToken: str(env, 'BOOTSTRAP_ADMIN_TOKEN'),
    rateLimit: {
      perSecond: int(env, 'RATE_LIMIT_PER_SECOND', 50, 1, 1_000_000),
      burst: int(env, 'RATE_LIMIT_BURST', 100, 1, 1_000_000),
    },
    busynessIntervalSeconds: int(env, 'BUSYNESS_INTERVAL_SECONDS', 60, 1, 86_400),
    publicUrl: str(env, 'PUBLIC_URL'),
    ...overrides,
  };
  return Object.freeze(config);
}
