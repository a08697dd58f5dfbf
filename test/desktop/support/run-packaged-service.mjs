// Starts the bundled service of a packaged layout under Node, as the desktop app's main
// process starts it: `node run-packaged-service.mjs SERVICE_MODULE DATA_DIR RESOURCES_DIR UI_DIR`.
// Prints one JSON line ({ origin, token }) once it listens; SIGTERM stops it cleanly.
import { pathToFileURL } from 'node:url';

const [serviceModule, dataDir, resourcesDir, uiDir] = process.argv.slice(2);
const { startService } = await import(pathToFileURL(serviceModule).href);
const service = await startService({ dataDir, port: 0, resourcesDir, uiDir });
console.log(JSON.stringify({ origin: service.origin, token: service.appToken() }));
process.once('SIGTERM', () => {
  void service.close().then(() => process.exit(0));
});
