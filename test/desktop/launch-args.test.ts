/** The desktop app's command line: files to open and --data-dir, among the switches others add. */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLaunchArgs } from '../../src/main/launch-args.js';

/** A person's downloads folder; any absolute folder serves. */
const cwd = path.join(tmpdir(), 'Downloads');

describe('parseLaunchArgs', () => {
  it('takes genotype files, relative to the launch folder', () => {
    const args = parseLaunchArgs(
      ['genome_Ada.txt', path.resolve('/tmp/ancestry.ZIP'), 'notes.pdf', 'sub/family.vcf'],
      cwd,
    );
    expect(args).toEqual({
      dataDir: null,
      files: [path.join(cwd, 'genome_Ada.txt'), path.resolve('/tmp/ancestry.ZIP'), path.join(cwd, 'sub', 'family.vcf')],
    });
  });

  it('skips the switches of Electron, Chromium and the platform', () => {
    const args = parseLaunchArgs(
      [
        '--no-sandbox',
        '--inspect=0',
        '--remote-debugging-port=0',
        '-psn_0_12345',
        '--allow-file-access-from-files',
        'a.csv',
      ],
      cwd,
    );
    expect(args.files).toEqual([path.join(cwd, 'a.csv')]);
  });

  it('reads file:// URLs that Linux desktops pass', () => {
    const file = path.join(tmpdir(), 'My Genome', 'genome.txt.gz');
    expect(parseLaunchArgs([pathToFileURL(file).href], cwd).files).toEqual([file]);
  });

  it('takes --data-dir=FOLDER, relative to the launch folder, and never as a file', () => {
    expect(parseLaunchArgs(['--data-dir=profiles.txt', 'x.tsv'], cwd)).toEqual({
      dataDir: path.join(cwd, 'profiles.txt'),
      files: [path.join(cwd, 'x.tsv')],
    });
    expect(parseLaunchArgs(['--data-dir'], cwd).dataDir).toBeNull();
  });
});
