// Installs the project's packages (npm ci) when they are missing, so `npm test`
// and `npm start` work on a fresh clone. Quiet and instant when they are there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function ensurePackages() {
  if (existsSync(path.join(repo, 'node_modules', '.package-lock.json'))) return;
  process.stdout.write('[zot] installing the project\'s packages (npm ci)…\n');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'inherit' });
}

if (import.meta.url === `file://${process.argv[1]}`) ensurePackages();
