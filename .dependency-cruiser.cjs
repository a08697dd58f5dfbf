/**
 * The layer rules of DEVELOPERS.md ("Architecture"), checked by `npm run lint:layers`:
 * the service runs headless and never reaches Electron or the UI; the UI talks to the
 * service over HTTP and shares only src/shared with it; main stays thin glue; nothing
 * shipped imports tests, benchmarks or scripts; and no module imports itself round a cycle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles (type-only ones too) tangle the layers: move the shared piece down into its own module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-stays-headless',
      severity: 'error',
      comment:
        'src/service runs without Electron (npm run serve, tests): it never imports electron, main, preload, the renderer or the CLI.',
      from: { path: '^src/service/' },
      to: { path: ['^src/(main|preload|renderer|cli)/', '^electron$', 'node_modules/electron/'] },
    },
    {
      name: 'renderer-only-shared',
      severity: 'error',
      comment: 'The UI talks to the service over HTTP; from the rest of src it imports only src/shared.',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(service|main|preload|cli)/' },
    },
    {
      name: 'shared-depends-on-nothing',
      severity: 'error',
      comment: 'src/shared is the contract both sides import: it imports none of them.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(service|main|preload|renderer|cli)/' },
    },
    {
      name: 'genotype-below-science',
      severity: 'error',
      comment:
        'The genotype layer (parsing, storage) sits below the science that reads it: science imports genotype, never the reverse.',
      from: { path: '^src/service/genotype/' },
      to: { path: '^src/service/science/' },
    },
    {
      name: 'main-not-to-renderer',
      severity: 'error',
      comment:
        'The main process reaches the page only through the preload bridge (contract in src/shared/desktop-bridge.ts).',
      from: { path: '^src/(main|preload)/' },
      to: { path: '^src/(renderer|cli)/' },
    },
    {
      name: 'preload-not-to-service',
      severity: 'error',
      comment: 'The preload script is a narrow bridge: Electron, its channels and src/shared only.',
      from: { path: '^src/preload/' },
      to: { path: '^src/(service|main)/' },
    },
    {
      name: 'cli-stays-headless',
      severity: 'error',
      comment: 'The command line runs in plain Node: no Electron, main process or UI.',
      from: { path: '^src/cli/' },
      to: { path: ['^src/(main|preload|renderer)/', '^electron$', 'node_modules/electron/'] },
    },
    {
      name: 'shipped-code-not-to-tooling',
      severity: 'error',
      comment: 'What ships (src/) never imports tests, benchmarks or scripts.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing fails at run time.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle or layer breach in types is still one.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    exclude: { path: ['^out/', '^dist/', '\\.d\\.ts$'] },
  },
};
