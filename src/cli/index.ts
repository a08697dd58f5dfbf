#!/usr/bin/env node
/** The Traitscope command line: `serve`, `clients`, `analyze`. */
import { DatabaseTooNewError } from '../service/db/database.js';
import { analyzeCommand } from './analyze.js';
import { UsageError } from './args.js';
import { clientsCommand } from './clients.js';
import { serveCommand } from './serve.js';
import { signInLinkCommand } from './sign-in-link.js';
import { statusCommand } from './status.js';
import { traitsCommand } from './traits.js';

const HELP = `Traitscope: genetic trait assessments from your DNA raw-data file, entirely offline.

Usage:
  traitscope serve [--port N] [--data-dir DIR]        run the service and web UI (port 0 = any free port;
                   [--cors-origin ORIGIN ...]         --cors-origin lets a browser page of ORIGIN call the API)
  traitscope status [--data-dir DIR]                  whether the service runs, and where (JSON with --json)
  traitscope clients create --name NAME [...]         credentials for a third-party tool
  traitscope clients list | revoke CLIENT_ID          manage them
  traitscope sign-in-link [--data-dir DIR]            a new one-time link into the running web UI
  traitscope analyze FILE [--ethnicity N] [--json]    print every computable trait for a file
  traitscope traits import FILE [--name NAME]         add a PGS Catalog scoring file as a custom trait
  traitscope traits list | remove CODE                manage custom traits

With npm: npm run serve -- --port 4780, npm run --silent cli -- clients create --name "My tool".`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serveCommand(rest);
    case 'clients':
      return clientsCommand(rest);
    case 'status':
      return statusCommand(rest);
    case 'sign-in-link':
      return signInLinkCommand(rest);
    case 'traits':
      return traitsCommand(rest);
    case 'analyze':
      return analyzeCommand(rest);
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof DatabaseTooNewError) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
