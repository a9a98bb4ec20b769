// The tourbook command: parses the command line, then loads only the chosen command's code (so `--help` is instant).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli/cli-error.ts';

const USAGE = `Usage: tourbook <command> [options]

  serve [--role all|api|worker] [--port N] [--host H]
                                         start the service (embedded database in DATA_DIR unless DATABASE_URL is set;
                                         --port/--host or PORT/HOST choose where it listens, default 127.0.0.1:3000)
  migrate                                apply database migrations (DATABASE_URL, or the embedded one in DATA_DIR)
  tenant create --name N [--extension busyness] [--json]
                                         create a tenant with its first admin and API key
  admin-key create [--tenant ID] [--json]
                                         mint a new admin API key (the way back in when a token is lost; for the
                                         embedded database, stop the service first)
  optimize --instance FILE [--time-limit SECONDS] [--seed K] [--workers N] [--json]
                                         solve a PDPTW benchmark file (Li & Lim or Sartori & Buriol)
  demo [--url U] [--token T]             load a small demo data set into a running service (URL from --url,
                                         TOURBOOK_URL, or HOST/PORT; token from --token, TOURBOOK_ADMIN_TOKEN or
                                         BOOTSTRAP_ADMIN_TOKEN)
  simulate --url U --token T [--city berlin|monaco] [--drivers N] [--bookings-per-minute M] [--duration S] [--speedup X] [--seed K] [--warmup W]
                                         drive a running service with a simulated city (demo and load test)
  region import <file.osm.pbf> [--name NAME] [--json]
                                         import an OpenStreetMap extract (addresses, streets, roads, tiles); a
                                         second import of the same name replaces it in one transaction
  keys generate                          print a new master key (for REPORTS_MASTER_KEY)
  keys rotate --new-key K                re-seal report file keys and webhook secrets under a new master key
  --help                                 show this help; tourbook <command> --help shows a command's own
`;

/** The database every database command opens, as each command's help says it. */
const DATABASE_ENV = `  DATABASE_URL           a PostgreSQL server (postgres://…); unset: the embedded database in DATA_DIR
  DATA_DIR               where the embedded database and local files live (default ./data)`;

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface Command {
  /** What `tourbook <command> --help` prints: usage, what it does, its flags and the environment it reads. */
  help: string;
  options: Options;
  /** The command takes positional arguments (a file); they reach `run` in order. */
  positionals?: boolean;
  run(values: Values, positionals: string[]): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    help: `Usage: tourbook serve [--role all|api|worker] [--port N] [--host H]

  Starts the service: the HTTP API (role api), the background worker (role worker), or both (all, the default). On
  the first start it creates the bootstrap tenant and prints its admin token once.

Flags (a flag wins over its environment variable):
  --role all|api|worker  what this process runs (ROLE)
  --port N               the port to listen on, 0 for any free one (PORT, default 3000)
  --host H               the address to listen on: 127.0.0.1 this machine only, 0.0.0.0 every interface
                         (HOST, default 127.0.0.1)

Environment (the operations guide lists every variable):
${DATABASE_ENV}
  PORT, HOST, ROLE       as the flags above
  PUBLIC_URL             the URL clients use, when a proxy stands in front
  BOOTSTRAP_ADMIN_TOKEN  the first admin's token instead of a generated one
  REPORTS_MASTER_KEY     the master key for report files and webhook secrets
  LOG_LEVEL, LOG_FORMAT  logging (info; auto: readable on a terminal, JSON otherwise)
`,
    options: { role: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
    run: async (values) => (await import('./cli/serve.ts')).serve(values as { role?: string; port?: string; host?: string }),
  },
  migrate: {
    help: `Usage: tourbook migrate

  Applies the pending database migrations and says which database it migrated. \`serve\` migrates the embedded
  database by itself; a PostgreSQL server is migrated with this command before the service starts.

Environment:
${DATABASE_ENV}
`,
    options: {},
    run: async () => (await import('./cli/database-commands.ts')).migrate(),
  },
  'tenant create': {
    help: `Usage: tourbook tenant create --name N [--extension busyness] [--json]

  Creates a tenant with its first admin user and prints the admin's API key once.

Flags:
  --name N               the tenant's name (required)
  --extension busyness   turn on an extension for the tenant (repeatable)
  --json                 print {tenant_id, admin_user_id, admin_token} as JSON

Environment:
${DATABASE_ENV}
`,
    options: { name: { type: 'string' }, extension: { type: 'string', multiple: true }, json: { type: 'boolean' } },
    run: async (values) => (await import('./cli/database-commands.ts')).createTenantCommand(values as { name?: string; extension?: string[]; json?: boolean }),
  },
  'admin-key create': {
    help: `Usage: tourbook admin-key create [--tenant ID] [--json]

  Mints a new admin API key on the machine that owns the database: the way back in when the admin token is lost.
  For the embedded database, stop the service first.

Flags:
  --tenant ID            the tenant (needed when there are several; the error lists them)
  --json                 print {tenant_id, user_id, api_key_id, admin_token} as JSON

Environment:
${DATABASE_ENV}
`,
    options: { tenant: { type: 'string' }, json: { type: 'boolean' } },
    run: async (values) => (await import('./cli/database-commands.ts')).createAdminKeyCommand(values as { tenant?: string; json?: boolean }),
  },
  'region import': {
    help: `Usage: tourbook region import <file.osm.pbf> [--name NAME] [--json]

  Imports an OpenStreetMap extract (.osm.pbf) into the database as a region: its house numbers, named streets,
  cities and postcodes (for geocoding), its drivable road network and its map tiles. A second import of the same
  name replaces the region in one transaction: readers see the old region until the new one is complete, and a
  failed or interrupted import leaves the old one in place. Regions of other names stay. Prints what it imported.
  For the embedded database, stop the service first.

Flags:
  --name NAME            the region's name (default: the file's name without .osm.pbf, e.g. "monaco")
  --json                 print {region_id, name, replaced_id, counts, seconds} as JSON

Environment:
${DATABASE_ENV}
`,
    options: { name: { type: 'string' }, json: { type: 'boolean' } },
    positionals: true,
    run: async (values, positionals) => (await import('./cli/region-command.ts')).regionImportCommand(values as { name?: string; json?: boolean }, positionals),
  },
  'keys generate': {
    help: `Usage: tourbook keys generate

  Prints a new base64 256-bit master key for REPORTS_MASTER_KEY. A server deployment (DATABASE_URL set) needs one to
  start: report files and webhook signing secrets are never stored in plain text.
`,
    options: {},
    run: async () => (await import('./keys-command.ts')).keysGenerate(),
  },
  'keys rotate': {
    help: `Usage: tourbook keys rotate --new-key K

  Seals every report file key and webhook signing secret again under a new master key, without touching file
  bytes. Resumable: run it again after an interruption. Then give every process the new key.

Flags:
  --new-key K            the new key: 32 bytes in base64 (e.g. \`openssl rand -base64 32\`)

Environment:
${DATABASE_ENV}
  REPORTS_MASTER_KEY     the current master key (the embedded database keeps its own in DATA_DIR)
`,
    options: { 'new-key': { type: 'string' } },
    run: async (values) => (await import('./keys-command.ts')).keysRotate(values as { 'new-key'?: string }),
  },
  demo: {
    help: `Usage: tourbook demo [--url U] [--token T]

  Loads a small demo data set (a Berlin service area, organizations, drivers, bookings, a tour in progress) into a
  running service through its HTTP API, and prints requests to try.

Flags (a flag wins over its environment variable):
  --url U                the service (TOURBOOK_URL; else http://HOST:PORT as serve uses them, default
                         http://127.0.0.1:3000)
  --token T              an admin token (TOURBOOK_ADMIN_TOKEN, or BOOTSTRAP_ADMIN_TOKEN; serve prints one on its
                         first start)

Environment:
  TOURBOOK_URL, HOST, PORT, TOURBOOK_ADMIN_TOKEN, BOOTSTRAP_ADMIN_TOKEN   as above
`,
    options: { url: { type: 'string' }, token: { type: 'string' } },
    run: async (values) => (await import('./cli/demo-command.ts')).demo(values as { url?: string; token?: string }),
  },
  optimize: {
    help: `Usage: tourbook optimize --instance FILE [--time-limit SECONDS] [--seed K] [--workers N] [--json]

  Solves a pickup-and-delivery benchmark instance (Li & Lim or Sartori & Buriol format) with Tourbook's route
  optimiser and prints vehicles, distance and the routes. Reads no database.

Flags:
  --instance FILE        the instance file (required)
  --time-limit SECONDS   how long to search (default 10)
  --seed K               the random seed (default 1)
  --workers N            parallel searches (default 1)
  --json                 print the result as JSON

Environment: none.
`,
    options: { instance: { type: 'string' }, 'time-limit': { type: 'string' }, seed: { type: 'string' }, workers: { type: 'string' }, json: { type: 'boolean' } },
    run: async (values) => (await import('./cli/optimize.ts')).optimizeCommand(values as { instance?: string; json?: boolean }),
  },
  simulate: {
    help: `Usage: tourbook simulate --url U --token T [--city berlin|monaco] [--drivers N] [--bookings-per-minute M] [--duration S] [--speedup X] [--seed K] [--warmup W]

  Drives a running Tourbook through its public HTTP API with a simulated city: a service area, two organizations,
  N drivers, places from real coordinates, M bookings per simulated minute, tours claimed or picked, positions
  every 5 s (simulated) along each tour's route (on the roads where a region covers the city: Monaco, the demo
  region; straight lines elsewhere), stops completed or failed. Prints a summary with the metres driven against
  the straight lines; exits 1 on any 5xx or protocol error.

Flags:
  --url U                the service (TOURBOOK_URL, default http://127.0.0.1:3000)
  --token T              an admin token (TOURBOOK_ADMIN_TOKEN)
  --city C               berlin (the PDPTW instances' coordinates, default) or monaco (the demo region's addresses)
  --drivers N            simulated drivers (default 5)
  --bookings-per-minute M  bookings per simulated minute (default 6)
  --duration S           real seconds to run (default 60)
  --speedup X            simulated time runs X times faster than real time (default 1)
  --seed K               deterministic for a seed (default 1)
  --warmup W             the first W real seconds are reported apart as "(warm-up)" (default 0)

Environment:
  TOURBOOK_URL, TOURBOOK_ADMIN_TOKEN   as above
`,
    options: { url: { type: 'string' }, token: { type: 'string' }, city: { type: 'string' }, drivers: { type: 'string' }, 'bookings-per-minute': { type: 'string' }, duration: { type: 'string' }, speedup: { type: 'string' }, seed: { type: 'string' }, warmup: { type: 'string' } },
    run: async (values) => (await import('./simulate/cli.ts')).simulateCommand(values),
  },
};

/** A usage mistake: one line saying what is wrong, then the usage (the command's own, when known), on stderr; exit 2. */
function usageError(message: string, usage = USAGE): never {
  process.stderr.write(`tourbook: ${message}\n\n${usage}`);
  process.exit(2);
}

/** parseArgs' messages add advice about `--` that does not apply here: keep the first sentence. */
const firstSentence = (message: string) => message.split(/\.\s/)[0]!.replace(/\.$/, '');

/** The command `args` name (`serve`, `tenant create`), or null. */
const commandOf = ([first, second]: string[]): string | null => (COMMANDS[first!] ? first! : COMMANDS[`${first} ${second}`] ? `${first} ${second}` : null);

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

export async function main(argv: string[]): Promise<void> {
  // `tourbook help serve` reads like `tourbook serve --help`.
  const args = argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv;
  const name = commandOf(args);
  if (!name) {
    const [first] = args;
    if (first === undefined || wantsHelp([first])) return void process.stdout.write(USAGE);
    const group = Object.keys(COMMANDS).find((key) => key.startsWith(`${first} `));
    if (group && wantsHelp(args)) return void process.stdout.write(COMMANDS[group]!.help);
    usageError(group ? `${first} needs a sub-command: ${group}` : `unknown command "${first}"`);
  }
  const command = COMMANDS[name]!;
  // A command's own help, whatever else is on the line (`serve --port 1 --help` too).
  if (wantsHelp(args)) return void process.stdout.write(command.help);
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: args.slice(name.split(' ').length), options: command.options, strict: true, allowPositionals: command.positionals ?? false }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) usageError(`${name}: ${firstSentence((err as Error).message)}`, command.help);
    throw err;
  }
  try {
    await command.run(values, positionals);
  } catch (err) {
    // Imported here, not at the top: config.ts compiles its schema on load, which `--help` need not pay for.
    const { ConfigError } = await import('./config.ts');
    if (err instanceof ConfigError) {
      process.stderr.write(`tourbook ${name}: ${err.message}\n`);
      process.exit(2);
    }
    if (err instanceof CliError || (err instanceof Error && err.message.startsWith('Another Tourbook process'))) {
      process.stderr.write(`tourbook ${name}: ${err.message}\n`);
      process.exit(err instanceof CliError ? err.exitCode : 1);
    }
    // A database server that does not answer is the environment, not a bug: no stack trace.
    let cause: unknown = err;
    while (cause instanceof Error && cause.cause && !(cause as NodeJS.ErrnoException).code) cause = cause.cause;
    const { code, address, port } = cause as NodeJS.ErrnoException & { address?: string; port?: number };
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') {
      process.stderr.write(`tourbook ${name}: cannot reach the database server${address ? ` at ${address}:${port}` : ''} (${code}); check DATABASE_URL\n`);
      process.exit(1);
    }
    throw err;
  }
}

await main(process.argv.slice(2));
