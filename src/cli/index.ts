#!/usr/bin/env node
/**
 * The Traitscope command line: `serve`, `clients`, `analyze`. Each command's module is
 * imported when that command runs, so a command loads only what it uses: `--help` or
 * `status` does not load the service and the science engine (electron.vite.config.ts keeps
 * these modules in chunks of their own, which the desktop app does not ship).
 */
import { UsageError } from './args.js';

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serveCommand,
  clients: async () => (await import('./clients.js')).clientsCommand,
  status: async () => (await import('./status.js')).statusCommand,
  'sign-in-link': async () => (await import('./sign-in-link.js')).signInLinkCommand,
  traits: async () => (await import('./traits.js')).traitsCommand,
  analyze: async () => (await import('./analyze.js')).analyzeCommand,
};

const HELP = `Traitscope: genetic trait assessments from your DNA raw-data file, entirely offline.

Usage:
  traitscope serve [--port N] [--data-dir DIR]        run the service and web UI (port 0 = any free port;
                   [--cors-origin ORIGIN ...]         --cors-origin lets a browser page of ORIGIN call the API)
  traitscope status [--data-dir DIR]                  whether the service runs, and where (JSON with --json)
  traitscope clients create --name NAME [...]         credentials for a third-party tool
  traitscope clients list | revoke CLIENT_ID          manage them
  traitscope sign-in-link [--data-dir DIR]            a new one-time link into the running web UI
  traitscope analyze FILE [--ethnicity N] [--json]    print every computable trait for a file
                          [--variants-only yes|no]    (a VCF: whether it lists only the variant sites)
                          [--sample NAME]             (a VCF of several people: whose genotypes)
  traitscope traits import FILE [--name NAME]         add a PGS Catalog scoring file as a custom trait
  traitscope traits list | remove CODE                manage custom traits

With npm: npm run serve -- --port 4780, npm run --silent cli -- clients create --name "My tool".`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && Object.hasOwn(COMMANDS, command)) return (await COMMANDS[command]())(rest);
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(HELP);
      return command === undefined ? 2 : 0;
    default:
      console.error(`Unknown command "${command}".\n\n${HELP}`);
      return 2;
  }
}

/**
 * Ends the process once everything it wrote is out: output piped to another program
 * (`analyze --json | jq`) is written asynchronously, and exiting at once cut it off after
 * the pipe's first 64 KiB. A write's callback runs after every earlier write is done.
 */
function exitAfterOutput(code: number): void {
  let waiting = 2;
  const done = () => {
    if (--waiting === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(exitAfterOutput, (err: unknown) => {
  // A newer database is told by the error's name, as the desktop app does: importing the
  // database module here would load better-sqlite3 for every failed command, and a failure
  // to load it would hide the command's own error.
  if (err instanceof UsageError || (err instanceof Error && err.name === 'DatabaseTooNewError')) {
    console.error(err.message);
    exitAfterOutput(2);
    return;
  }
  console.error(err);
  exitAfterOutput(1);
});
