// The VSIXes under test, built the way a release is, in a copy of the project
// so tests running beside it never see dist/ rewritten:
//   extensionVsix   `npm run package`: what users install, no test instruments
//   testBundleVsix  `npm run package:test`: the same, with the test bundle's
//                   extension.js, whose activate() returns the test API
//   fakeLmVsix      the fake language model (test/e2e/fake-lm)
// ZOT_E2E_VSIX, ZOT_E2E_TEST_VSIX and ZOT_E2E_FAKE_LM_VSIX name already built ones instead.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A copy of the project to package in, one per scratch folder.
 * @param {string} scratch
 */
async function projectCopy(scratch) {
  const copy = path.join(scratch, 'package');
  if (existsSync(copy)) return copy;
  const skip = new Set(['node_modules', '.git', '.vscode-test', 'dist', 'bench']);
  await mkdir(copy);
  for (const entry of readdirSync(repoRoot)) {
    if (!skip.has(entry)) await cp(path.join(repoRoot, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

/**
 * @param {string} scratch
 * @param {string} script
 * @param {string} file
 */
async function packaged(scratch, script, file) {
  const started = Date.now();
  const copy = await projectCopy(scratch);
  execFileSync('npm', ['run', script], { cwd: copy, stdio: 'pipe' });
  const out = path.join(scratch, file);
  await cp(path.join(copy, 'dist', file), out);
  console.log(`# packaged ${file} (npm run ${script} in a copy) in ${Date.now() - started} ms`);
  return out;
}

/**
 * The VSIX a user installs.
 * @param {string} scratch
 */
export async function extensionVsix(scratch) {
  if (process.env.ZOT_E2E_VSIX) return path.resolve(process.env.ZOT_E2E_VSIX);
  return packaged(scratch, 'package', 'zot-extensions.vsix');
}

/**
 * The VSIX whose extension returns the test API that the suites read the UI through.
 * @param {string} scratch
 */
export async function testBundleVsix(scratch) {
  if (process.env.ZOT_E2E_TEST_VSIX) return path.resolve(process.env.ZOT_E2E_TEST_VSIX);
  return packaged(scratch, 'package:test', 'zot-extensions-test.vsix');
}

const VSCE = path.join(repoRoot, 'node_modules', '.bin', 'vsce');
const VSCE_ARGS = ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out'];

/**
 * A VSIX of a small test extension folder (the e2e runner).
 * @param {string} folder
 * @param {string} out
 */
export function testExtensionVsix(folder, out) {
  execFileSync(VSCE, [...VSCE_ARGS, out], { cwd: folder, stdio: 'pipe' });
  return out;
}

/**
 * The fake language model's VSIX (test/e2e/fake-lm), in `scratch`.
 * @param {string} scratch
 */
export async function fakeLmVsix(scratch) {
  if (process.env.ZOT_E2E_FAKE_LM_VSIX) return path.resolve(process.env.ZOT_E2E_FAKE_LM_VSIX);
  const out = path.join(scratch, 'fake-lm.vsix');
  await promisify(execFile)(VSCE, [...VSCE_ARGS, out], { cwd: path.join(repoRoot, 'test', 'e2e', 'fake-lm') });
  return out;
}
