// The tourbook command: parses the command line, then loads only the chosen command's code (so `--help` is instant).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli/cli-error.ts';

const USAGE = `Usage: tourbook <command> [options]

  serve [--role all|api|worker]          start the service (embedded database in DATA_DIR unless DATABASE_URL is set;
                                         PORT and HOST choose where it listens, default 127.0.0.1:3000)
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
  simulate --url U --token T [--drivers N] [--bookings-per-minute M] [--duration S] [--speedup X] [--seed K] [--warmup W]
                                         drive a running service with a simulated Berlin (demo and load test)
  keys generate                          print a new master key (for REPORTS_MASTER_KEY)
  keys rotate --new-key K                re-seal report file keys and webhook secrets under a new master key
  --help                                 show this help
`;

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface Command {
  options: Options;
  run(values: Values): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    options: { role: { type: 'string' } },
    run: async (values) => (await import('./cli/serve.ts')).serve(values as { role?: string }),
  },
  migrate: {
    options: {},
    run: async () => (await import('./cli/database-commands.ts')).migrate(),
  },
  'tenant create': {
    options: { name: { type: 'string' }, extension: { type: 'string', multiple: true }, json: { type: 'boolean' } },
    run: async (values) => (await import('./cli/database-commands.ts')).createTenantCommand(values as { name?: string; extension?: string[]; json?: boolean }),
  },
  'admin-key create': {
    options: { tenant: { type: 'string' }, json: { type: 'boolean' } },
    run: async (values) => (await import('./cli/database-commands.ts')).createAdminKeyCommand(values as { tenant?: string; json?: boolean }),
  },
  'keys generate': {
    options: {},
    run: async () => (await import('./keys-command.ts')).keysGenerate(),
  },
  'keys rotate': {
    options: { 'new-key': { type: 'string' } },
    run: async (values) => (await import('./keys-command.ts')).keysRotate(values as { 'new-key'?: string }),
  },
  demo: {
    options: { url: { type: 'string' }, token: { type: 'string' } },
    run: async (values) => (await import('./cli/demo-command.ts')).demo(values as { url?: string; token?: string }),
  },
  optimize: {
    options: { instance: { type: 'string' }, 'time-limit': { type: 'string' }, seed: { type: 'string' }, workers: { type: 'string' }, json: { type: 'boolean' } },
    run: async (values) => (await import('./cli/optimize.ts')).optimizeCommand(values as { instance?: string; json?: boolean }),
  },
  simulate: {
    options: { url: { type: 'string' }, token: { type: 'string' }, drivers: { type: 'string' }, 'bookings-per-minute': { type: 'string' }, duration: { type: 'string' }, speedup: { type: 'string' }, seed: { type: 'string' }, warmup: { type: 'string' } },
    run: async (values) => (await import('./simulate/cli.ts')).simulateCommand(values),
  },
};

/** A usage mistake: one line saying what is wrong, then the usage, on stderr; exit 2. */
function usageError(message: string): never {
  process.stderr.write(`tourbook: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** parseArgs' messages add advice about `--` that does not apply here: keep the first sentence. */
const firstSentence = (message: string) => message.split(/\.\s/)[0]!.replace(/\.$/, '');

export async function main(argv: string[]): Promise<void> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const [first, second] = argv;
  const name = COMMANDS[first!] ? first! : COMMANDS[`${first} ${second}`] ? `${first} ${second}` : null;
  if (!name) {
    const group = Object.keys(COMMANDS).find((key) => key.startsWith(`${first} `));
    usageError(group ? `${first} needs a sub-command: ${group}` : `unknown command "${first}"`);
  }
  const command = COMMANDS[name]!;
  let values: Values;
  try {
    values = parseArgs({ args: argv.slice(name.split(' ').length), options: command.options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) usageError(`${name}: ${firstSentence((err as Error).message)}`);
    throw err;
  }
  try {
    await command.run(values);
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
