// @ts-check
/**
 * Lint: typescript-eslint's recommended type-checked rules on every TypeScript file, and
 * React's hook rules on the UI. Formatting is Prettier's job (npm run lint runs both).
 * Each rule turned off or relaxed below says why.
 */
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test/api/generated/**',
      'src/service/genotype/parse/wasm/core-wasm.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused names are errors, except those marked unused on purpose with a leading _.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Callbacks and store actions are declared as function-typed properties, not methods:
      // their parameters are then checked strictly (methods are bivariant), and passing them
      // around unbound (zustand actions, props) is safe, which unbound-method then confirms.
      '@typescript-eslint/method-signature-style': ['error', 'property'],
      // \`async\` without \`await\` is deliberate where a function implements a Promise-returning
      // contract (CLI commands, file sources): a throw inside it rejects, as callers expect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks and complete effect dependencies. The plugin's other recommended
    // rules check what the React Compiler needs to memoize safely; the UI is not compiled
    // with it, and its "latest value in a ref" pattern is the documented one without it.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Tests read the service's JSON answers as untyped data and check them with expect();
    // every answer is also validated against the OpenAPI document (test/api/support/
    // conformance-setup.ts). Typing each body would add casts that prove nothing more.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // It takes a cast from Record<string, unknown> to the tests' Record<string, any> for a
      // no-op and would remove it, leaving the body typed unknown again.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Test helpers' method signatures are not passed around unbound; unbound-method still checks.
      '@typescript-eslint/method-signature-style': 'off',
    },
  },
  {
    // Plain JavaScript (configs, bin/, the dev bootstrap) has no types to check against.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      // Node's globals; the plain JavaScript here all runs in Node.
      globals: Object.fromEntries(
        ['process', 'console', 'Buffer', 'URL', 'setTimeout', 'setImmediate', 'clearTimeout', 'module', 'require'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
);
