// Configuration: environment variables checked against one schema, then parsed into a typed, frozen Config; bad values stop the process.
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { SmsProvider } from './seams/sms.ts';

export type Role = 'api' | 'worker' | 'all';

export interface Config {
  databaseUrl: string | null;
  /** A connection that bypasses a pooler, for what needs one session (LISTEN; decision 1450). */
  databaseDirectUrl: string | null;
  /** DATABASE_URL is a transaction pooler (PgBouncer): statements go unnamed (decision 1450). */
  databaseTransactionPooler: boolean;
  dataDir: string;
  port: number;
  host: string;
  role: Role;
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * The domains a tenant's own From address may be in (MAIL_SENDER_DOMAINS; decision 1784): those the SMTP server may
   * send for (SPF, DKIM). Empty: MAIL_FROM's own domain only.
   */
  mailSenderDomains: string[];
  reportsMasterKey: string | null;
  /** More master keys that may open (never seal) file keys: during a key rotation (docs/operations.md). */
  reportsAcceptedMasterKeys: string[];
  reportMaxBytes: number;
  reportRetentionDays: number;
  /** Largest JSON body a route accepts unless it declares its own `bodyLimit` (413 beyond). */
  bodyLimitBytes: number;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | null;
  osrmUrl: string | null;
  /**
   * The routing engine travel times ask first (ROUTING + ROUTING_URL; OSRM_URL alone means osrm), how many table
   * requests run at once, and how long an engine's answer per point pair is reused (docs/operations.md "Routing").
   */
  routing: { engine: 'osrm' | 'valhalla' | null; url: string | null; parallel: number; cacheSeconds: number };
  /** The optional geocoding provider after the tenant's places and the regions (contract §14, decision 1507). */
  geocoder: { kind: 'nominatim' | 'photon'; url: string; requestsPerSecond: number; timeoutMs: number; cacheSize: number } | null;
  webhooksAllowPrivateTargets: boolean;
  logLevel: string;
  /** `auto`: human-readable on a terminal, JSON lines otherwise (decision 0132). */
  logFormat: 'auto' | 'pretty' | 'json';
  operatorToken: string | null;
  bootstrapAdminToken: string | null;
  rateLimit: { perSecond: number; burst: number };
  /** Failed authentications (invalid tokens, failed sign-ins) per client address (decision 0113). */
  authFailureLimit: { perSecond: number; burst: number };
  /** scrypt cost of new password hashes: N = 2^logN (decision 0113). */
  passwordHash: { logN: number; r: number; p: number };
  busynessIntervalSeconds: number;
  /** How long a booking's tracking link keeps answering after its last stop reached a final state (decision 1100). */
  trackingLinkTtlSeconds: number;
  publicUrl: string | null;
  /** Raster tiles for the pages' maps (`https://tiles.example/{z}/{x}/{y}.png`); null: the offline style (decision 1000). */
  mapTileUrl: string | null;
  /** Worker threads the route optimiser's searches run in (decision 0961): plans and optimisations beyond them wait. */
  optimizerThreads: number;
  /** Live tracking (issue 15): ingestion filter, position retention, OSRM request timeout. */
  live: {
    maxSpeedKmh: number;
    positionRetentionDays: number;
    osrmTimeoutMs: number;
    /** The live stream: outbox poll interval, heartbeat comment interval, credential re-check interval. */
    stream: { pollMs: number; heartbeatMs: number; revalidateMs: number; pollBatch?: number };
  };
  /** Running as several processes (issue 26): database timeouts, shutdown, the worker's own port, shared blobs, replicas. */
  database: { connectTimeoutMs: number; queryTimeoutMs: number; replicaUrls: string[]; replicaMaxLagSeconds: number };
  /** How long SIGTERM waits for in-flight requests and the worker's work in hand before the process exits anyway. */
  shutdownGraceSeconds: number;
  /** Where the worker role serves /metrics and /healthz (decision 1403); null: nowhere. */
  workerMetricsPort: number | null;
  /** The local blob folder is shared by every API process (a network file system): decision 1404. */
  blobDirShared: boolean;
  /** Days a proof photo or signature file is kept after the handover, then deleted (decision 1250). */
  proofRetentionDays: number;
  /** Days recipients' phone numbers and messages are kept after their booking's last stop, then erased (decision 1773). */
  recipientDataRetentionDays: number;
  /**
   * The SMS gateway recipients are told through (contract §18, decisions 1760, 1782, 1783): Kannel's `sendsms` URL,
   * Twilio's API base or an SMSC's `smpp://host:port`, with its credentials (Twilio: Account SID and Auth Token; SMPP:
   * system_id and password), the sender (`SMS_FROM`, else `Tourbook`) and the secret Kannel's and the SMPP bridge's
   * callbacks carry. Null: no SMS is sent.
   */
  sms: { provider: SmsProvider; url: string; username: string | null; password: string | null; from: string; callbackSecret: string | null; timeoutMs: number } | null;
}

export class ConfigError extends Error {}

// ajv-formats ships CommonJS with a default export; NodeNext sees the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const integer = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum });
const number = (exclusiveMinimum: number, maximum: number) => ({ type: 'number', exclusiveMinimum, maximum });
const boolean = { type: 'string', enum: ['true', 'false', '1', '0'] };
const httpUrl = { type: 'string', format: 'uri', pattern: '^https?://' };
const text = { type: 'string', minLength: 1, maxLength: 4096 };
const SMS_PROVIDERS: readonly SmsProvider[] = ['kannel', 'smpp', 'twilio'];

/**
 * Every variable Tourbook reads (decision 0113). Values arrive as strings; numbers are coerced. An unset or empty
 * variable takes its default; a set one must be valid, so a typo fails at start instead of at the first request.
 */
const ENV_SCHEMA = {
  type: 'object',
  properties: {
    DATABASE_URL: { type: 'string', format: 'uri', pattern: '^postgres(ql)?://' },
    DATABASE_DIRECT_URL: { type: 'string', format: 'uri', pattern: '^postgres(ql)?://' },
    DATABASE_TRANSACTION_POOLER: boolean,
    DATA_DIR: text,
    PORT: integer(0, 65535),
    HOST: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }, { format: 'hostname' }] },
    ROLE: { type: 'string', enum: ['api', 'worker', 'all'] },
    SMTP_URL: { type: 'string', format: 'uri', pattern: '^smtps?://' },
    MAIL_FROM: text,
    MAIL_SENDER_DOMAINS: { type: 'string', pattern: '^[A-Za-z0-9.-]+(,[A-Za-z0-9.-]+)*$' },
    REPORTS_MASTER_KEY: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=$' },
    REPORTS_ACCEPTED_MASTER_KEYS: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=(,[A-Za-z0-9+/]{43}=)*$' },
    REPORT_MAX_BYTES: integer(1, 1024 * 1024 * 1024),
    REPORT_RETENTION_DAYS: integer(1, 366),
    BODY_LIMIT_BYTES: integer(1024, 1024 * 1024 * 1024),
    S3_ENDPOINT: httpUrl,
    S3_BUCKET: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' },
    S3_REGION: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' },
    S3_ACCESS_KEY_ID: text,
    S3_SECRET_ACCESS_KEY: text,
    OSRM_URL: httpUrl,
    ROUTING: { type: 'string', enum: ['osrm', 'valhalla', 'none'] },
    ROUTING_URL: httpUrl,
    ROUTING_PARALLEL: integer(1, 64),
    ROUTING_CACHE_SECONDS: integer(0, 30 * 86_400),
    GEOCODER: { type: 'string', enum: ['nominatim', 'photon'] },
    GEOCODER_URL: httpUrl,
    GEOCODER_REQUESTS_PER_SECOND: number(0.01, 1000),
    GEOCODER_TIMEOUT_MS: integer(100, 60_000),
    GEOCODER_CACHE_SIZE: integer(1, 1_000_000),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: boolean,
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    LOG_FORMAT: { type: 'string', enum: ['auto', 'pretty', 'json'] },
    OPERATOR_TOKEN: { type: 'string', minLength: 16, maxLength: 512 },
    BOOTSTRAP_ADMIN_TOKEN: { type: 'string', minLength: 16, maxLength: 512 },
    RATE_LIMIT_PER_SECOND: integer(1, 1_000_000),
    RATE_LIMIT_BURST: integer(1, 1_000_000),
    AUTH_FAILURES_PER_SECOND: number(0, 1_000_000),
    AUTH_FAILURES_BURST: integer(1, 1_000_000),
    PASSWORD_HASH_LOG_N: integer(14, 20),
    BUSYNESS_INTERVAL_SECONDS: integer(1, 86_400),
    TRACKING_LINK_TTL: integer(0, 366 * 86_400),
    PUBLIC_URL: httpUrl,
    // A URL template, not a URL: the braces of {z}/{x}/{y} are not URI characters.
    MAP_TILE_URL: { type: 'string', maxLength: 500, pattern: '^https?://[^\\s"<>\'\\\\]+$' },
    LIVE_MAX_SPEED_KMH: integer(1, 2000),
    POSITION_RETENTION_DAYS: integer(1, 3650),
    PROOF_RETENTION_DAYS: integer(1, 3650),
    RECIPIENT_DATA_RETENTION_DAYS: integer(1, 3650),
    OSRM_TIMEOUT_MS: integer(50, 60_000),
    LIVE_POLL_MS: integer(10, 10_000),
    LIVE_REVALIDATE_MS: integer(100, 600_000),
    OPTIMIZER_THREADS: integer(1, 64),
    DATABASE_CONNECT_TIMEOUT_MS: integer(100, 600_000),
    DATABASE_QUERY_TIMEOUT_MS: integer(100, 3_600_000),
    DATABASE_REPLICA_URLS: { type: 'string', pattern: '^postgres(ql)?://[^,\\s]+(,postgres(ql)?://[^,\\s]+)*$' },
    REPLICA_MAX_LAG_SECONDS: number(0, 3600),
    SHUTDOWN_GRACE_SECONDS: integer(0, 3600),
    WORKER_METRICS_PORT: integer(0, 65535),
    BLOB_DIR_SHARED: boolean,
    SMS_PROVIDER: { type: 'string', enum: SMS_PROVIDERS },
    // Which scheme is the provider's: smsOf (smpp:// for SMPP, http(s) for the others).
    SMS_URL: { type: 'string', format: 'uri', pattern: '^(https?|smpp)://' },
    SMS_USERNAME: text,
    SMS_PASSWORD: text,
    // GSM 03.38 alphanumeric senders are at most 11 characters; a number is up to 15 digits after an optional +.
    SMS_FROM: { type: 'string', pattern: '^([A-Za-z0-9 ._-]{1,11}|\\+?[0-9]{1,15})$' },
    SMS_CALLBACK_SECRET: { type: 'string', minLength: 16, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
    SMS_TIMEOUT_MS: integer(100, 60_000),
  },
  // An S3 endpoint without credentials used to become `''` silently and fail at the first upload.
  dependencies: { S3_ENDPOINT: ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], DATABASE_DIRECT_URL: ['DATABASE_URL'], DATABASE_TRANSACTION_POOLER: ['DATABASE_DIRECT_URL'], SMS_PROVIDER: ['SMS_URL'] },
} as const;

const envAjv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
addFormats(envAjv);
const validateEnv = envAjv.compile<Record<string, string | number | undefined>>(ENV_SCHEMA);

const variableOf = (error: ErrorObject): string =>
  error.keyword === 'dependencies' ? String(error.params.missingProperty) : error.instancePath.split('/')[1] ?? '';

function describe(error: ErrorObject, raw: NodeJS.ProcessEnv): string {
  const name = variableOf(error);
  if (error.keyword === 'dependencies') return `${name} is required when ${String(error.params.property)} is set`;
  const value = raw[name] ?? '';
  const shown = /TOKEN|SECRET|KEY/.test(name) ? `${value.length} characters` : `"${value.slice(0, 100)}"`;
  const allowed = error.keyword === 'enum' ? `one of ${(error.params.allowedValues as string[]).join(', ')}` : error.message;
  return `${name} must be ${allowed?.replace(/^must (be )?/, '')}, got ${shown}`;
}

/** Known, non-empty variables only (empty means unset), checked against ENV_SCHEMA; every problem in one message. */
function checkedEnv(env: NodeJS.ProcessEnv): Record<string, string | number | undefined> {
  const values: Record<string, string | number | undefined> = {};
  for (const name of Object.keys(ENV_SCHEMA.properties)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') values[name] = raw;
  }
  if (!validateEnv(values)) {
    const seen = new Set<string>();
    const problems = (validateEnv.errors ?? []).filter((e) => e.keyword !== 'anyOf' || !seen.has(variableOf(e)));
    const lines = [...new Set(problems.map((e) => (seen.add(variableOf(e)), describe(e, env))))];
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return values;
}

/** GEOCODER and GEOCODER_URL go together; the public Nominatim's policy is at most one request per second (the default). */
function geocoderConfig(kind: string | null, url: string | null, requestsPerSecond: number, timeoutMs: number, cacheSize: number): Config['geocoder'] {
  if (kind === null && url === null) return null;
  if (kind === null) throw new ConfigError('GEOCODER_URL is set but GEOCODER is not: set GEOCODER=nominatim or GEOCODER=photon');
  if (url === null) throw new ConfigError(`GEOCODER=${kind} needs GEOCODER_URL (the service's base URL, e.g. http://127.0.0.1:8080)`);
  return { kind: kind as 'nominatim' | 'photon', url: url.replace(/\/+$/, ''), requestsPerSecond, timeoutMs, cacheSize };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const v = checkedEnv(env);
  const str = (name: string): string | null => (v[name] === undefined ? null : String(v[name]));
  const num = (name: string, fallback: number): number => (v[name] === undefined ? fallback : Number(v[name]));
  const bool = (name: string, fallback: boolean): boolean => (v[name] === undefined ? fallback : v[name] === 'true' || v[name] === '1');
  const s3Endpoint = str('S3_ENDPOINT');
  const config: Config = {
    databaseUrl: str('DATABASE_URL'),
    databaseDirectUrl: str('DATABASE_DIRECT_URL'),
    databaseTransactionPooler: bool('DATABASE_TRANSACTION_POOLER', false),
    dataDir: path.resolve(str('DATA_DIR') ?? './data'),
    port: num('PORT', 3000),
    host: str('HOST') ?? '127.0.0.1',
    role: (str('ROLE') ?? 'all') as Role,
    smtpUrl: str('SMTP_URL'),
    mailFrom: str('MAIL_FROM') ?? 'Tourbook <no-reply@tourbook.local>',
    mailSenderDomains: str('MAIL_SENDER_DOMAINS')?.toLowerCase().split(',') ?? [],
    reportsMasterKey: str('REPORTS_MASTER_KEY'),
    reportsAcceptedMasterKeys: str('REPORTS_ACCEPTED_MASTER_KEYS')?.split(',') ?? [],
    reportMaxBytes: num('REPORT_MAX_BYTES', 50 * 1024 * 1024),
    reportRetentionDays: num('REPORT_RETENTION_DAYS', 30),
    bodyLimitBytes: num('BODY_LIMIT_BYTES', 1024 * 1024),
    s3: s3Endpoint
      ? {
          endpoint: s3Endpoint,
          bucket: str('S3_BUCKET') ?? 'tourbook',
          region: str('S3_REGION') ?? 'us-east-1',
          accessKeyId: str('S3_ACCESS_KEY_ID')!,
          secretAccessKey: str('S3_SECRET_ACCESS_KEY')!,
        }
      : null,
    osrmUrl: str('OSRM_URL'),
    routing: routingOf(str('ROUTING'), str('ROUTING_URL'), str('OSRM_URL'), num('ROUTING_PARALLEL', 4), num('ROUTING_CACHE_SECONDS', 3600)),
    geocoder: geocoderConfig(str('GEOCODER'), str('GEOCODER_URL'), num('GEOCODER_REQUESTS_PER_SECOND', 1), num('GEOCODER_TIMEOUT_MS', 3_000), num('GEOCODER_CACHE_SIZE', 10_000)),
    webhooksAllowPrivateTargets: bool('WEBHOOKS_ALLOW_PRIVATE_TARGETS', false),
    logLevel: str('LOG_LEVEL') ?? 'info',
    logFormat: (str('LOG_FORMAT') ?? 'auto') as Config['logFormat'],
    operatorToken: str('OPERATOR_TOKEN'),
    bootstrapAdminToken: str('BOOTSTRAP_ADMIN_TOKEN'),
    rateLimit: { perSecond: num('RATE_LIMIT_PER_SECOND', 50), burst: num('RATE_LIMIT_BURST', 100) },
    authFailureLimit: { perSecond: num('AUTH_FAILURES_PER_SECOND', 0.5), burst: num('AUTH_FAILURES_BURST', 60) },
    passwordHash: { logN: num('PASSWORD_HASH_LOG_N', 17), r: 8, p: 1 },
    busynessIntervalSeconds: num('BUSYNESS_INTERVAL_SECONDS', 60),
    trackingLinkTtlSeconds: num('TRACKING_LINK_TTL', 7 * 86_400),
    publicUrl: str('PUBLIC_URL'),
    mapTileUrl: str('MAP_TILE_URL'),
    optimizerThreads: num('OPTIMIZER_THREADS', 1),
    live: {
      maxSpeedKmh: num('LIVE_MAX_SPEED_KMH', 200),
      positionRetentionDays: num('POSITION_RETENTION_DAYS', 30),
      osrmTimeoutMs: num('OSRM_TIMEOUT_MS', 2000),
      stream: { pollMs: num('LIVE_POLL_MS', 200), heartbeatMs: 15_000, revalidateMs: num('LIVE_REVALIDATE_MS', 15_000) },
    },
    database: {
      connectTimeoutMs: num('DATABASE_CONNECT_TIMEOUT_MS', 5_000),
      queryTimeoutMs: num('DATABASE_QUERY_TIMEOUT_MS', 30_000),
      replicaUrls: str('DATABASE_REPLICA_URLS')?.split(',') ?? [],
      replicaMaxLagSeconds: num('REPLICA_MAX_LAG_SECONDS', 5),
    },
    shutdownGraceSeconds: num('SHUTDOWN_GRACE_SECONDS', 10),
    workerMetricsPort: v.WORKER_METRICS_PORT === undefined ? null : num('WORKER_METRICS_PORT', 0),
    blobDirShared: bool('BLOB_DIR_SHARED', false),
    proofRetentionDays: num('PROOF_RETENTION_DAYS', 90),
    recipientDataRetentionDays: num('RECIPIENT_DATA_RETENTION_DAYS', 90),
    sms: smsOf(str('SMS_PROVIDER'), str('SMS_URL'), {
      username: str('SMS_USERNAME'),
      password: str('SMS_PASSWORD'),
      from: str('SMS_FROM') ?? 'Tourbook',
      callbackSecret: str('SMS_CALLBACK_SECRET'),
      timeoutMs: num('SMS_TIMEOUT_MS', 10_000),
    }),
    ...overrides,
  };
  // An override of osrmUrl alone (a test's OSRM peer) is the alias too.
  if (overrides.osrmUrl && !overrides.routing) config.routing = { ...config.routing, engine: 'osrm', url: overrides.osrmUrl };
  return Object.freeze(config);
}

/** ROUTING=osrm|valhalla with ROUTING_URL; OSRM_URL stays an alias of ROUTING=osrm (contract §10); `none`: no engine. */
function routingOf(engine: string | null, url: string | null, osrmUrl: string | null, parallel: number, cacheSeconds: number): Config['routing'] {
  if (engine === 'none') return { engine: null, url: null, parallel, cacheSeconds };
  if (engine === 'osrm' || engine === 'valhalla') {
    const engineUrl = url ?? (engine === 'osrm' ? osrmUrl : null);
    if (!engineUrl) throw new ConfigError(`Invalid configuration:\n  ROUTING=${engine} needs ROUTING_URL`);
    return { engine, url: engineUrl, parallel, cacheSeconds };
  }
  return osrmUrl ? { engine: 'osrm', url: osrmUrl, parallel, cacheSeconds } : { engine: null, url: null, parallel, cacheSeconds };
}

/**
 * SMS_PROVIDER and SMS_URL go together: a URL without a provider is a half-made configuration, not "no SMS". The URL's
 * scheme is the provider's (an SMSC speaks SMPP, Kannel and Twilio HTTP), and Twilio cannot send without its Account
 * SID and Auth Token (the latter also checks its callbacks' signatures, decision 1782).
 */
function smsOf(provider: string | null, url: string | null, rest: Omit<NonNullable<Config['sms']>, 'provider' | 'url'>): Config['sms'] {
  if (provider === null && url === null) return null;
  const invalid = (line: string) => new ConfigError(`Invalid configuration:\n  ${line}`);
  if (provider === null) throw invalid(`SMS_URL is set but SMS_PROVIDER is not: set SMS_PROVIDER=${SMS_PROVIDERS.join('|')}`);
  const kind = provider as SmsProvider;
  const scheme = new URL(url!).protocol;
  if (kind === 'smpp' && scheme !== 'smpp:') throw invalid(`SMS_PROVIDER=smpp needs SMS_URL=smpp://host:port (the SMSC), got ${scheme}//…`);
  if (kind !== 'smpp' && scheme === 'smpp:') throw invalid(`SMS_PROVIDER=${kind} needs an http(s) SMS_URL; smpp:// is for SMS_PROVIDER=smpp`);
  if (kind === 'twilio' && (rest.username === null || rest.password === null)) {
    throw invalid('SMS_PROVIDER=twilio needs SMS_USERNAME (the Account SID) and SMS_PASSWORD (the Auth Token)');
  }
  return { provider: kind, url: url!, ...rest };
}
