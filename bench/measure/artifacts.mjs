// What is read off the build: the production bundle's size, the VSIX's, and
// activate() as the VS Code e2e run measured it.
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

export function vsixSize() {
  const f = path.join(ROOT, 'dist', 'zot-extensions.vsix');
  if (!fs.existsSync(f)) return { value: null, reason: 'dist/zot-extensions.vsix is missing (make it with `npm run package`)' };
  return { value: fs.statSync(f).size / 1024, reason: null };
}

export function activateMs() {
  const f = path.join(ROOT, '.vscode-test', 'activate-ms.json');
  if (!fs.existsSync(f)) return { value: null, reason: '.vscode-test/activate-ms.json is missing (written by the VS Code e2e run)' };
  let v;
  try {
    v = JSON.parse(fs.readFileSync(f, 'utf8'));
  } catch (err) {
    return { value: null, reason: `.vscode-test/activate-ms.json is not JSON: ${err.message}` };
  }
  if (typeof v === 'number') return { value: v, reason: null };
  for (const k of ['activate_ms', 'activateMs', 'ms', 'median_ms', 'median', 'value']) {
    if (v && typeof v[k] === 'number') return { value: v[k], reason: null };
  }
  return { value: null, reason: `.vscode-test/activate-ms.json has no number (looked for activate_ms, activateMs, ms, median_ms): ${JSON.stringify(v).slice(0, 120)}` };
}
