/**
 * The API reference page at /api/docs: Swagger UI from the bundled swagger-ui-dist
 * package, so it works offline, under the UI's Content-Security-Policy (no inline script
 * or style: the start-up script is a file of its own, and the base layout avoids the
 * standalone top bar's inline styles).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DOCS_ASSETS = '/api/docs/assets';

/**
 * The files of swagger-ui-dist the page uses, by the name they are served under: from the
 * copy beside the bundle (out/main/swagger-ui, which the packaged app ships without
 * node_modules), else from the package itself (the service run from source).
 */
export function swaggerUiFiles(): Record<string, string> {
  const besideBundle = fileURLToPath(new URL('./swagger-ui/', import.meta.url));
  const dir = existsSync(besideBundle)
    ? besideBundle
    : path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return {
    'swagger-ui.css': path.join(dir, 'swagger-ui.css'),
    'swagger-ui-bundle.js': path.join(dir, 'swagger-ui-bundle.js'),
  };
}

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Traitscope API reference</title>
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
<link rel="stylesheet" href="${DOCS_ASSETS}/docs.css">
</head>
<body>
<header class="docs-header"><strong>Traitscope API</strong> · <a href="/api/openapi.json">openapi.json</a> · <a href="/api/version">version</a></header>
<main id="swagger-ui"><noscript>The reference needs JavaScript. The document itself is at /api/openapi.json.</noscript></main>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS}/openapi.js"></script>
<script src="${DOCS_ASSETS}/docs.js"></script>
</body>
</html>
`;

/**
 * The OpenAPI document as a script the page loads: the page is sandboxed into an opaque
 * origin (API_REFERENCE_POLICY), from which fetching /api/openapi.json would be a refused
 * cross-origin request, while a script loads from anywhere its policy allows.
 */
export function docsSpecScript(document: Uint8Array): string {
  return `window.TRAITSCOPE_OPENAPI = ${Buffer.from(document).toString('utf8')};\n`;
}

export const DOCS_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    spec: window.TRAITSCOPE_OPENAPI,
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    deepLinking: true,
    displayOperationId: true,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    validatorUrl: null,
    // A reference, not a console: Swagger UI's client-credentials flow cannot send the
    // audience the token endpoint requires, and the curl walk-through covers trying it.
    supportedSubmitMethods: []
  });
});
`;

export const DOCS_CSS = `body { margin: 0; font-family: system-ui, sans-serif; }
.docs-header { padding: 12px 20px; background: #1f2a37; color: #fff; font-size: 15px; }
.docs-header a { color: #cfe3ff; }
`;
