// Installs the project's packages (npm ci) when they are missing, so `npm test`
// and `npm start` work on a fresh clone. Quiet and instant when they are there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Returns false (after saying why in one line) when the install failed. */
export function ensurePackages() {
  if (existsSync(path.join(repo, 'node_modules', '.package-lock.json'))) return true;
  process.stdout.write('[zot] installing the project\'s packages (npm ci)…\n');
  try {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'inherit' });
    return true;
  } catch {
    process.stderr.write('[zot] npm ci failed (its output is above): check that the npm registry is reachable, then run the command again\n');
    return false;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensurePackages() ? 0 : 1);
