/** `serve`: the service and web UI without Electron, until interrupted. */
import { DEFAULT_PORT } from '../service/config.js';
import { parse, portOption } from './args.js';

const USAGE = 'traitscope serve [--port N] [--data-dir DIR] [--cors-origin ORIGIN ...]';

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parse(
    args,
    { port: { type: 'string' }, 'data-dir': { type: 'string' }, 'cors-origin': { type: 'string', multiple: true } },
    USAGE,
  );
  const port = portOption(values.port, DEFAULT_PORT);
  // The service is loaded once the arguments are known to be good: a usage error is told at once.
  const [{ startService }, { copyConsoleToLog }] = await Promise.all([
    import('../service/index.js'),
    import('../service/log-file.js'),
  ]);
  const service = await startService({
    port,
    dataDir: values['data-dir'],
    corsOrigins: values['cors-origin'],
  });
  copyConsoleToLog(service.log);
  console.log(`Traitscope is running. API: ${service.origin}/api  (reference: ${service.origin}/api/docs)`);
  console.log(`Data folder: ${service.config.dataDir}`);
  console.log(`Log file: ${service.log.path}`);
  console.log(`Open the app in your browser (this link signs one tab in, once): ${service.signInUrl()}`);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await service.close();
  return 0;
}
