// The VSIXes under test, built the way a release is, in a copy of the project
// so tests running beside it never see dist/ rewritten:
//   extensionVsix   `npm run package`: what users install, no test instruments
//   testBundleVsix  `npm run package:test`: the same, with the test bundle's
//                   extension.js, whose activate() returns the test API
// ZOT_E2E_VSIX and ZOT_E2E_TEST_VSIX name already built ones instead.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * A VSIX of a small test extension folder (the fake language model).
 * @param {string} folder
 * @param {string} out
 */
export function testExtensionVsix(folder, out) {
  execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: folder, stdio: 'pipe' });
  return out;
}
