import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { failed, lib, makeExt, succeeded, tmpdir } from '../helpers.mjs';

const { discoverExtensions, defaultZotHome, resolveExec, checkManifest, extensionLogPath } = lib;

function layout() {
  const project = tmpdir('zot-proj-');
  const home = tmpdir('zot-home-');
  const explicitRoot = tmpdir('zot-explicit-');
  return { project, home, explicitRoot, projectRoot: path.join(project, '.zot', 'extensions'), globalRoot: path.join(home, 'extensions') };
}

test('ZOT_HOME and its platform defaults', () => {
  assert.equal(defaultZotHome({ ZOT_HOME: '/x/zot' }, 'linux', '/home/u'), '/x/zot');
  assert.equal(defaultZotHome({}, 'linux', '/home/u'), '/home/u/.local/state/zot');
  assert.equal(defaultZotHome({ XDG_STATE_HOME: '/s' }, 'linux', '/home/u'), '/s/zot');
  assert.equal(defaultZotHome({}, 'darwin', '/Users/u'), '/Users/u/Library/Application Support/zot');
  assert.equal(extensionLogPath('/h', 'weather'), '/h/logs/ext-weather.log');
  const odd = extensionLogPath('/h', '../../etc/x');
  assert.equal(path.dirname(odd), '/h/logs', 'a name with separators stays inside logs/');
});

test('load order is explicit, then project, then global, each root by folder name', () => {
  const l = layout();
  makeExt(l.globalRoot, 'b-global');
  makeExt(l.globalRoot, 'a-global');
  makeExt(l.projectRoot, 'z-project');
  makeExt(l.projectRoot, 'c-project');
  const ex2 = makeExt(l.explicitRoot, 'ex2');
  const ex1 = makeExt(l.explicitRoot, 'ex1');
  const found = discoverExtensions({ projectDir: l.project, zotHome: l.home, explicit: [ex2, ex1] });
  assert.deepEqual(found.map((f) => [f.name, f.source, f.rank]), [
    ['ex2', 'explicit', 0], ['ex1', 'explicit', 1],
    ['c-project', 'project', 2], ['z-project', 'project', 3],
    ['a-global', 'global', 4], ['b-global', 'global', 5],
  ]);
  assert.deepEqual(discoverExtensions({ projectDir: l.project, zotHome: l.home, explicit: [ex1], discover: false }).map((f) => f.name), ['ex1']);
});

test('symlinked folders count; duplicates are settled by folder name, then by manifest name', () => {
  const l = layout();
  const elsewhere = tmpdir('zot-elsewhere-');
  const target = makeExt(elsewhere, 'linked-target', { name: 'linked' });
  fs.mkdirSync(l.globalRoot, { recursive: true });
  fs.symlinkSync(target, path.join(l.globalRoot, 'linked'));
  makeExt(l.projectRoot, 'same-folder', { name: 'from-project' });
  makeExt(l.globalRoot, 'same-folder', { name: 'from-global' });
  makeExt(l.projectRoot, 'p-folder', { name: 'same-name' });
  makeExt(l.globalRoot, 'g-folder', { name: 'same-name' });
  const found = discoverExtensions({ projectDir: l.project, zotHome: l.home });
  const byDir = Object.fromEntries(found.map((f) => [path.relative(f.source === 'project' ? l.projectRoot : l.globalRoot, f.dir) + '@' + f.source, f]));
  assert.equal(byDir['linked@global'].name, 'linked');
  assert.equal(byDir['linked@global'].shadowedBy, undefined);
  assert.equal(byDir['same-folder@global'].shadowedBy, path.join(l.projectRoot, 'same-folder'));
  assert.equal(byDir['g-folder@global'].shadowedBy, path.join(l.projectRoot, 'p-folder'));
  assert.equal(byDir['p-folder@project'].shadowedBy, undefined);
});

test('a bad manifest is an error for that extension only, named after its folder', () => {
  const l = layout();
  makeExt(l.globalRoot, 'good');
  /**
   * @param {string} folder
   * @param {string | null} text
   */
  const write = (folder, text) => {
    fs.mkdirSync(path.join(l.globalRoot, folder), { recursive: true });
    if (text !== null) fs.writeFileSync(path.join(l.globalRoot, folder, 'extension.json'), text);
  };
  write('not-json', '{ nope');
  write('no-name', '{"exec":"node"}');
  write('array', '[1]');
  write('nothing-to-run', '{"name":"x"}');
  write('bad-args', '{"name":"y","exec":"node","args":"a b"}');
  write('escaping-skill', '{"name":"z","skills":["../../etc"]}');
  write('no-manifest', null);
  const found = discoverExtensions({ projectDir: l.project, zotHome: l.home });
  const err = Object.fromEntries(found.map((f) => [f.name, f.error]));
  assert.equal(err.good, undefined);
  assert.match(/** @type {string} */ (err['not-json']), /not-json.*extension\.json is not valid JSON/);
  assert.match(/** @type {string} */ (err['no-name']), /"name" is required/);
  assert.match(/** @type {string} */ (err.array), /must hold a JSON object/);
  assert.match(/** @type {string} */ (err['nothing-to-run']), /"exec" is required/);
  assert.match(/** @type {string} */ (err['bad-args']), /"args" must be a list of strings/);
  assert.match(/** @type {string} */ (err['escaping-skill']), /escapes the extension folder/);
  assert.match(/** @type {string} */ (err['no-manifest']), /no extension\.json in/);
});

test('theme-only and skills-only folders need no exec; disabled manifests are found', () => {
  const dir = tmpdir();
  fs.writeFileSync(path.join(dir, 'theme.json'), '{}');
  assert.equal(succeeded(checkManifest({ name: 't' }, dir)).assetsOnly, true);
  assert.equal(succeeded(checkManifest({ name: 's', skills: ['skills/x'] }, tmpdir())).assetsOnly, true);
  const r = checkManifest({ name: 'off', exec: 'node', enabled: false }, tmpdir());
  assert.equal(r.ok, true);
  assert.equal(r.manifest.enabled, false);
});

test('exec resolution: absolute, relative to the folder, bare names on PATH', () => {
  const dir = tmpdir();
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.writeFileSync(path.join(dir, 'bin', 'run'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'plain'), 'x', { mode: 0o644 });
  assert.deepEqual(resolveExec('./bin/run', dir), { ok: true, file: path.join(dir, 'bin', 'run'), inFolder: true });
  assert.deepEqual(resolveExec('bin/run', dir), { ok: true, file: path.join(dir, 'bin', 'run'), inFolder: true });
  assert.equal(resolveExec(path.join(dir, 'bin', 'run'), '/').ok, true);
  assert.match(failed(resolveExec('./missing', dir)).error, /does not exist/);
  assert.match(failed(resolveExec('./plain', dir)).error, /not executable/);
  const node = resolveExec('node', dir);
  assert.equal(node.ok, true);
  assert.equal(node.inFolder, false);
  assert.match(failed(resolveExec('no-such-program-zot', dir)).error, /not found on PATH/);
  assert.equal(succeeded(resolveExec('run', dir, { PATH: path.join(dir, 'bin') })).file, path.join(dir, 'bin', 'run'));
});
