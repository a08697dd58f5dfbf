/**
 * Renders icon.svg into the PNG sizes installers need, and packs them into icon.ico
 * (Windows) and icon.icns (macOS), using only Node and a headless Chromium (the one the
 * e2e tests use). Run again after changing icon.svg:
 *
 *   node resources/icons/render-icons.mjs
 *
 * Output: png/<size>x<size>.png (Linux icon set), icon.png (1024), icon.ico, icon.icns.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const here = path.dirname(new URL(import.meta.url).pathname);
const svg = readFileSync(path.join(here, 'icon.svg'), 'utf8');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

async function renderPngs() {
  const profile = mkdtempSync(path.join(tmpdir(), 'icon-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pngs = new Map();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
    );
    pngs.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
  }
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  return pngs;
}

/** ICO with PNG-compressed entries (Windows Vista and later). */
function ico(entries) {
  const header = Buffer.alloc(6 + 16 * entries.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach(([size, png], i) => {
    const at = 6 + i * 16;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt8(0, at + 2);
    header.writeUInt8(0, at + 3);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...entries.map(([, png]) => png)]);
}

/** ICNS with PNG entries: icp4 16, icp5 32, ic07 128, ic08 256, ic09 512, ic10 1024 (512@2x). */
function icns(pngs) {
  const types = [
    ['icp4', 16],
    ['icp5', 32],
    ['icp6', 64],
    ['ic07', 128],
    ['ic08', 256],
    ['ic09', 512],
    ['ic10', 1024],
  ];
  const chunks = types.map(([type, size]) => {
    const png = pngs.get(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

const pngs = await renderPngs();
mkdirSync(path.join(here, 'png'), { recursive: true });
for (const [size, png] of pngs) if (size <= 512) writeFileSync(path.join(here, 'png', `${size}x${size}.png`), png);
writeFileSync(path.join(here, 'icon.png'), pngs.get(1024));
writeFileSync(path.join(here, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256].map((s) => [s, pngs.get(s)])));
writeFileSync(path.join(here, 'icon.icns'), icns(pngs));
console.log(`Wrote ${SIZES.length} PNG sizes, icon.ico and icon.icns to ${here}`);
