/**
 * End-to-end harness: the real headless server (`serve --port 0` on a fresh data folder,
 * exactly what a user runs) and Debian's Chromium driven by playwright-core. The web UI it
 * serves (out/renderer) is built, whenever older than the sources, by the global set-up
 * (test/support/bundle.ts) before any test runs.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Profile } from '../../../src/shared/api.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium.js';
import { openEvents, request, runCli, startServer, traitsWhen } from '../../support/server.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const SCREENSHOTS = path.join(ROOT, 'test-results', 'screens');

export interface RunningApp {
  origin: string;
  /** A one-time sign-in link, http://127.0.0.1:<port>/#signin=…, from `sign-in-link` as a user gets one. */
  signInUrl: string;
  token: string;
  dataDir: string;
  /** Authorized JSON call to the API as the app's own client. */
  api<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export async function startApp(): Promise<RunningApp> {
  const server = await startServer(); // the UI it serves is built by the global set-up (test/support/bundle.ts)
  const token = server.appToken;
  const link = runCli(['sign-in-link', '--data-dir', server.dataDir]);
  if (link.status !== 0) throw new Error(`sign-in-link failed: ${link.stderr}`);
  return {
    origin: server.origin,
    signInUrl: link.stdout.trim(),
    token,
    dataDir: server.dataDir,
    async api<T>(method: string, apiPath: string, body?: unknown) {
      const r = await request<T>(`${server.api}${apiPath}`, { method, token, json: body });
      return { status: r.status, body: r.body };
    },
    stop: () => server.stop(),
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Messages the page logged as errors, and uncaught exceptions: a test can assert none. */
  errors: string[];
  close(): Promise<void>;
}

export async function openBrowser(
  options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number; bypassCSP?: boolean } = {},
): Promise<Browser> {
  const profileDir = mkdtempSync(path.join(tmpdir(), 'traitscope-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1320, height: options.height ?? 860 },
    acceptDownloads: true,
    bypassCSP: options.bypassCSP ?? false,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Failed requests the UI handles itself (e.g. an expected 4xx) are logged by Chromium; ignore those.
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let animations (dialogs, toasts) settle so the picture shows what a person sees.
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? false });
}

/**
 * Drops files on the window the way the operating system does: a real DragEvent carrying a
 * DataTransfer with File objects, first entering the window, then dropping on a drop zone.
 */
export async function dropFiles(
  page: Page,
  files: Array<{ name: string; content: string | Uint8Array; type?: string }>,
  zoneTestId: 'drop-new' | 'drop-replace',
  whileDragging?: () => Promise<void>,
): Promise<void> {
  // Bytes cross into the page as arrays of numbers.
  const list = files.map((f) => ({ ...f, content: typeof f.content === 'string' ? f.content : Array.from(f.content) }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const part = typeof f.content === 'string' ? f.content : new Uint8Array(f.content);
      dt.items.add(new File([part], f.name, { type: f.type ?? 'text/plain' }));
    }
    return dt;
  }, list);
  await page.locator('body').dispatchEvent('dragenter', { dataTransfer });
  const zone = page.getByTestId(zoneTestId);
  await zone.waitFor();
  await zone.dispatchEvent('dragover', { dataTransfer });
  await whileDragging?.();
  await zone.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

/**
 * Uploads a genotype through the API (for tests whose subject is not the drop itself) and
 * returns once its results are complete: processed, and every trait scored in the background.
 */
export async function uploadThroughApi(app: RunningApp, profileId: string, content: string): Promise<void> {
  const events = await openEvents({ api: `${app.origin}/api` }, app.token);
  try {
    const { body } = await app.api<{ url: string }>(
      'GET',
      `/profiles/${profileId}/genotype/upload/?content-type=text/plain`,
    );
    const put = await fetch(body.url, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: content });
    if (!put.ok) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
    const done = await app.api<{ detail: string }>('POST', `/profiles/${profileId}/genotype/upload/`);
    if (done.status !== 200) throw new Error(`processing failed: ${JSON.stringify(done.body)}`);
    await events.next(
      (e) =>
        e.event === 'job' && e.data.profile_id === profileId && e.data.kind === 'scoring' && e.data.state === 'done',
    );
  } finally {
    events.close();
  }
}

/**
 * A test's own profile with its genotype processed and every trait scored: the profile of
 * this name with a file when one exists already (an earlier test of the file made it, in the
 * UI or here), else made now through the API. Each test asks for what it needs, so any test
 * runs alone (`vitest run FILE -t NAME`) as well as after the others.
 */
export async function scoredProfile(
  app: RunningApp,
  name: { first_name: string; last_name?: string },
  content: string,
): Promise<Profile> {
  const existing = (await app.api<Profile[]>('GET', '/profiles/')).body.find(
    (p) => p.first_name === name.first_name && (p.last_name ?? '') === (name.last_name ?? ''),
  );
  if (existing) {
    const genotype = await app.api<{ metadata?: { status?: string } }>('GET', `/profiles/${existing.id}/genotype/`);
    if (genotype.body.metadata?.status === 'processed') {
      await waitForScoring(app, existing.id);
      return existing;
    }
  }
  const profile = existing ?? (await app.api<Profile>('POST', '/profiles/', name)).body;
  await uploadThroughApi(app, profile.id, content);
  return profile;
}

/** Until no trait of the profile is left to score in the background. */
async function waitForScoring(app: RunningApp, profileId: string): Promise<void> {
  await traitsWhen(
    { api: `${app.origin}/api` },
    app.token,
    profileId,
    (list: Array<{ status: string }>) => list.length > 0 && !list.some((t) => t.status === 'available'),
    '',
  );
}

/**
 * Opens a screen of the app with a fresh load of the page, so it reads what tests made
 * through the API meanwhile (a navigation that changes only the hash keeps what the page
 * read before).
 */
export async function openFresh(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
}

/**
 * Screen-reader basics: interactive elements without an accessible name (a button with
 * only an icon and no label, an input without a label). Returns short descriptions.
 */
export async function unlabeledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const named = (el: Element) => {
      const aria = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title');
      if (aria) return true;
      if ((el as HTMLInputElement).labels?.length) return true;
      return (el.textContent ?? '').trim().length > 0;
    };
    for (const el of document.querySelectorAll(
      'button, a[href], input:not([type=hidden]), select, textarea, [role=button]',
    )) {
      if (el.closest('[aria-hidden=true]') || (el as HTMLElement).dataset.testid === 'file-input') continue;
      if (!named(el)) problems.push(el.outerHTML.slice(0, 120));
    }
    return problems;
  });
}

const AXE_SOURCE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

/**
 * axe-core run in the page (injected from node_modules): the serious and critical
 * violations, each as "rule: target (summary)". Run it on every screen in both themes.
 *
 * Rules that can only ever report a minor or moderate violation are switched off, which
 * leaves the answer as it is and saves about a fifth of axe's time: axe rates a violation
 * with the highest impact among the rule's failing checks (or the rule's own fixed impact),
 * so a rule none of whose checks rates serious or critical cannot add to what this returns.
 */
export async function axeViolations(page: Page, context = 'body'): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(async (selector) => {
    type Check = string | { id: string };
    type AxeRule = { id: string; impact?: string; any: Check[]; all: Check[]; none: Check[] };
    const axe = (
      window as unknown as {
        axe: {
          _audit: { rules: AxeRule[]; data: { checks: Record<string, { impact?: string } | undefined> } };
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{
            violations: Array<{
              id: string;
              impact: string;
              nodes: Array<{ target: string[]; failureSummary: string }>;
            }>;
          }>;
        };
      }
    ).axe;
    const grave = (impact: string | undefined) => impact === 'serious' || impact === 'critical';
    const canBeGrave = (rule: AxeRule) =>
      rule.impact
        ? grave(rule.impact)
        : [...rule.any, ...rule.all, ...rule.none].some((c) =>
            grave(axe._audit.data.checks[typeof c === 'string' ? c : c.id]?.impact),
          );
    const rules = Object.fromEntries(
      axe._audit.rules.filter((r) => !canBeGrave(r)).map((r) => [r.id, { enabled: false }]),
    );
    const result = await axe.run(selector, { resultTypes: ['violations'], rules });
    return result.violations
      .filter((v) => grave(v.impact))
      .flatMap((v) =>
        v.nodes
          .slice(0, 3)
          .map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)})`),
      );
  }, context);
}

/** axe in the light and the dark theme of the same screen. */
export async function axeBothThemes(page: Page, context = 'body'): Promise<string[]> {
  const out: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    // Reduced motion: no colour transition half-way when axe measures contrast.
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    out.push(...(await axeViolations(page, context)).map((v) => `[${scheme}] ${v}`));
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  return out;
}

/** Waits until the list has drawn its whole page of rows: the first frame of a profile's results draws only the first few. */
export async function waitForListDrawn(page: Page): Promise<void> {
  await page.locator('ul.trait-list[aria-busy=false]').waitFor({ timeout: 30_000 });
}

/**
 * Waits until the service has scored every trait of the profile in the background and the
 * page shows them all, pushed by the service: the list header counts every phenotype that
 * has a result. Nothing is pressed and nothing reloaded.
 */
export async function waitForAllResults(page: Page, app: RunningApp, profileId: string): Promise<number> {
  // Re-read on each of the service's `traits` events for the profile, until nothing is left to compute.
  await waitForScoring(app, profileId);
  const scored = (
    await app.api<Array<{ trait: { code: string; group?: { code: string } } }>>(
      'GET',
      `/profiles/${profileId}/traits/?score`,
    )
  ).body;
  const phenotypes = new Set(scored.map((r) => r.trait.group?.code ?? r.trait.code)).size;
  await page
    .getByTestId('trait-browser')
    .getByText(`${phenotypes.toLocaleString('en-US')} phenotypes with a result`)
    .waitFor({ timeout: 60_000 });
  return phenotypes;
}
