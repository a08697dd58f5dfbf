/**
 * Checks that the repository speaks of the product only and names nothing that is not there:
 * - every repository path named in code, comments and docs exists (src/…, test/…, docs/…);
 * - every `npm run SCRIPT` named exists in package.json;
 * - no file outside history names a work-tracker number, a role in the team, or an absolute
 *   path of a development machine.
 *
 *   npx tsx scripts/check-repository.ts      (npm run lint:repo; .ci/run runs it)
 *
 * Exits 1 with one line per finding: `file:line: what is wrong`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Files that are data or generated, not prose or code someone reads for meaning. */
const SKIPPED = [
  /^package-lock\.json$/,
  /^resources\/catalog\//,
  /^resources\/ancestry\//,
  /^resources\/icons\//,
  /^test\/fixtures\//,
  /^test\/api\/generated\//,
  /^src\/service\/genotype\/parse\/wasm\/core-wasm\.ts$/,
  /^src\/service\/db\/(schema\.sql|migration-checksums\.json)$/,
  /\.(png|ico|icns|gz|bin|zip|wasm)$/,
];

/** Where a path may be named as a pattern or an example rather than a file that exists. */
const PATH_ROOTS = ['src', 'test', 'scripts', 'bench', 'docs', 'resources', 'bin', '.github', '.ci'];
const PATH_PATTERN = new RegExp(
  String.raw`(?<![\w./-])(?:\.\.\/shared\/[\w./-]+|(?:${PATH_ROOTS.map((r) => r.replace('.', '\\.')).join('|')})\/[\w./-]*[\w-]\.(?:ts|tsx|mts|mjs|cjs|js|md|json|yml|yaml|c|sql|css|html|sh|tsv|txt|gz|bin|png|svg|plist|nsh)|\.ci\/run)(?![\w/])`,
  'g',
);
/** A source file named without its folder (`grid.ts`): some file of the repository must have that name. */
const BARE_SOURCE_NAME = /(?<![\w./-])([a-z][\w-]*\.tsx?)(?![\w/])/gi;
const NPM_RUN = /\bnpm run(?: --silent)? ([a-z][\w:-]*[\w-])/g;

interface Rule {
  pattern: RegExp;
  what: string;
}
/** Roles in a team that builds the product, which the product has no reason to name. */
const TEAM_ROLES = ['lead', 'tech lead', 'team lead'];

/** Talk of the project's own work process, which belongs in git history, not in the product. */
const PROCESS_TALK: Rule[] = [
  { pattern: /\bissues? #?\d+\b/i, what: 'names a work-tracker issue number' },
  { pattern: new RegExp(`\\bthe (?:${TEAM_ROLES.join('|')})(?:'s)?\\b`, 'i'), what: 'names a role in the team' },
  { pattern: /\b(?:CEO|subagent|helper session)\b/, what: 'names a role in the team' },
  {
    pattern: /(?:^|[\s'"`(=])\/(?:work|root|home\/[a-z][\w.-]*|Users\/[A-Za-z][\w.-]*)\//,
    what: 'names an absolute path of a machine',
  },
];

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((f) => f && !SKIPPED.some((p) => p.test(f)) && existsSync(join(repoRoot, f)));
}

function pathExists(named: string, file: string): boolean {
  const clean = named.replace(/\.$/, '');
  if (clean.startsWith('../shared/')) {
    // In code, ../shared is src/shared seen from a sibling folder; in docs, the source data beside the
    // repository (there on development machines and in CI; where it is not, it cannot be checked).
    if (existsSync(resolve(repoRoot, dirname(file), clean))) return true;
    if (existsSync(resolve(repoRoot, dirname(file), clean.replace(/\.js$/, '.ts')))) return true;
    const shared = resolve(repoRoot, '..', 'shared');
    return !existsSync(shared) || existsSync(resolve(repoRoot, clean));
  }
  if (existsSync(join(repoRoot, clean))) return true;
  // `src/x.js` in an import-like mention names the TypeScript source `src/x.ts`.
  return /\.js$/.test(clean) && ['.ts', '.tsx'].some((ext) => existsSync(join(repoRoot, clean.replace(/\.js$/, ext))));
}

function main(): void {
  const scripts = new Set(
    Object.keys((JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: object }).scripts),
  );
  const files = trackedFiles();
  const basenames = new Set(
    execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
      .split('\0')
      .map((f) => f.split('/').pop()!),
  );
  const findings: string[] = [];
  const self = 'scripts/check-repository.ts';
  for (const file of files) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    if (text.includes('\0')) continue;
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      if (file !== self) {
        for (const rule of PROCESS_TALK) if (rule.pattern.test(line)) findings.push(`${where}: ${rule.what}`);
      }
      for (const m of file === self ? [] : line.matchAll(PATH_PATTERN)) {
        const named = m[0];
        if (/[*{}<>]|\bN\b|XXX|\.\.\.$/.test(named) || named.includes('/…')) continue;
        if (!pathExists(named, file)) findings.push(`${where}: names ${named}, which does not exist`);
      }
      for (const m of file === self ? [] : line.matchAll(BARE_SOURCE_NAME)) {
        if (!basenames.has(m[1])) findings.push(`${where}: names ${m[1]}, which no file of the repository is called`);
      }
      for (const m of line.matchAll(NPM_RUN)) {
        if (!scripts.has(m[1]))
          findings.push(`${where}: names \`npm run ${m[1]}\`, which package.json does not define`);
      }
    });
  }
  if (findings.length > 0) {
    console.error(findings.join('\n'));
    console.error(
      `\n${findings.length} finding(s). Name only files and scripts that exist, and keep the work process (issue numbers, roles, machine paths) in git history.`,
    );
    process.exit(1);
  }
  console.log('check-repository: every named path and script exists; no work-process talk.');
}

main();
