// The VSIX under test, built the way a release is: `npm run package`, in a
// copy of the project so tests running beside it never see dist/ rewritten.
// ZOT_E2E_VSIX names an already built VSIX instead.
import { execFileSync } from 'node:child_process';
import { readdirSync, symlinkSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function extensionVsix(scratch) {
  if (process.env.ZOT_E2E_VSIX) return path.resolve(process.env.ZOT_E2E_VSIX);
  const started = Date.now();
  const copy = path.join(scratch, 'package');
  const skip = new Set(['node_modules', '.git', '.vscode-test', 'dist', 'bench']);
  await mkdir(copy);
  for (const entry of readdirSync(repoRoot)) {
    if (!skip.has(entry)) await cp(path.join(repoRoot, entry), path.join(copy, entry), { recursive: true, filter: (p) => !p.includes(`${path.sep}screenshots`) });
  }
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  execFileSync('npm', ['run', 'package'], { cwd: copy, stdio: 'pipe' });
  const out = path.join(scratch, 'zot-extensions.vsix');
  await cp(path.join(copy, 'dist', 'zot-extensions.vsix'), out);
  console.log(`# packaged the VSIX (npm run package in a copy) in ${Date.now() - started} ms`);
  return out;
}

/** A VSIX of a small test extension folder (the fake language model). */
export function testExtensionVsix(folder, out) {
  execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: folder, stdio: 'pipe' });
  return out;
}
