// The first thing `npm test` (its pretest) and `npm start` do on a fresh
// clone: install the project's packages with npm ci when they are missing,
// and say nothing and take no time when they are there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @type {string} */
let clone;

before(() => {
  // A clone as git gives it: the manifest, the lock file and the script, no node_modules.
  clone = mkdtempSync(path.join(os.tmpdir(), 'zot-fresh-clone-'));
  for (const f of ['package.json', 'package-lock.json']) cpSync(path.join(repo, f), path.join(clone, f));
  mkdirSync(path.join(clone, 'scripts'));
  cpSync(path.join(repo, 'scripts', 'ensure-packages.mjs'), path.join(clone, 'scripts', 'ensure-packages.mjs'));
});
after(() => rmSync(clone, { recursive: true, force: true }));

test('ensure-packages runs npm ci in a clone without node_modules, then does nothing', { timeout: 10 * 60_000 }, () => {
  const run = () => spawnSync(process.execPath, [path.join(clone, 'scripts', 'ensure-packages.mjs')], { cwd: clone, encoding: 'utf8' });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /installing the project's packages \(npm ci\)/);
  assert.ok(existsSync(path.join(clone, 'node_modules', '.package-lock.json')), 'npm ci installed the packages');
  assert.ok(existsSync(path.join(clone, 'node_modules', 'typescript', 'package.json')), 'a devDependency is there');
  const second = run();
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stdout, '', 'quiet when the packages are there');
});
