// What is read off the build: the production bundle's size and the VSIX's.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../config.mjs';
import { scratch } from '../util.mjs';

let production;
/** dist/ as `npm run package` builds it (minified, as the VSIX ships it), once per run, in a scratch folder. */
export function productionBuild() {
  if (production) return production;
  const out = scratch('production');
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', out], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`production build failed: ${(r.stderr || r.stdout).slice(-500)}`);
  production = out;
  return out;
}

export function bundleSize() {
  return fs.statSync(path.join(productionBuild(), 'extension.js')).size / 1024;
}

/** The production VSIX, built here (in a copy of the project, as the e2e suites do). */
export async function vsixSize() {
  const { extensionVsix } = await import('../../test/e2e/vsix.mjs');
  return fs.statSync(await extensionVsix(scratch('vsix'))).size / 1024;
}
