// What is read off the build: the production bundle's size and the VSIX's.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../config.mjs';
import { scratch } from '../util.mjs';

export function bundleSize() {
  const copy = scratch('bundle');
  for (const f of fs.readdirSync(ROOT)) {
    if (f === 'esbuild.mjs' || f === 'package.json' || /^tsconfig.*\.json$/.test(f)) fs.copyFileSync(path.join(ROOT, f), path.join(copy, f));
  }
  fs.cpSync(path.join(ROOT, 'src'), path.join(copy, 'src'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`production build failed: ${(r.stderr || r.stdout).slice(-500)}`);
  return fs.statSync(path.join(copy, 'dist', 'extension.js')).size / 1024;
}

/** The production VSIX, built here (in a copy of the project, as the e2e suites do). */
export async function vsixSize() {
  const { extensionVsix } = await import('../../test/e2e/vsix.mjs');
  return fs.statSync(await extensionVsix(scratch('vsix'))).size / 1024;
}
