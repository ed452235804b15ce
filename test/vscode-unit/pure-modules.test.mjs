// Unit tests of the VS Code layer's modules that need no VS Code (consent
// decisions and fingerprints, the note limiter, installs, JSON with comments),
// bundled from src/vscode with esbuild.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync, statSync, openSync, writeSync, closeSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleSources, failed, succeeded } from '../helpers.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @typedef {import('../bundled').BundledSources} Src */
/** @typedef {import('../../out/types/host/index.js').Manifest} Manifest */
/** @type {string} */
let scratch;
/** @type {Src['vscode/trust/consent']} */
let consent;
/** @type {Src['vscode/trust/fingerprint']} */
let fingerprint;
/** @type {Src['vscode/ui/noteLimiter']} */
let limiter;
/** @type {Src['vscode/commands/install']} */
let install;
/** @type {Src['vscode/core/jsonc']} */
let jsonc;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-vscode-pure-'));
  ({ consent, fingerprint, noteLimiter: limiter, install, jsonc } = await bundleSources(path.join(scratch, 'out'), 'vscode',
    ['trust/consent', 'trust/fingerprint', 'ui/noteLimiter', 'commands/install', 'core/jsonc']));
});

after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * @param {string} name
 * @param {Record<string, string>} files
 * @param {Record<string, unknown>} manifest
 */
function extensionFolder(name, files, manifest) {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, ...manifest }));
  return dir;
}

describe('consent decisions', () => {
  const fp = 'f'.repeat(64);
  test('code the workspace does not bring starts', () => {
    assert.deepEqual(consent.decide({ needsConsent: false, trusted: false, fingerprint: '', record: undefined }), { kind: 'start' });
  });
  test('untrusted: held, never asked, cannot be allowed', () => {
    const d = consent.decide({ needsConsent: true, trusted: false, fingerprint: fp, record: { fingerprint: fp, allowed: true, at: 1 } });
    assert.deepEqual(d, { kind: 'hold', hold: 'untrusted', reason: 'workspace is not trusted', ask: false, canAllow: false });
  });
  test('trusted, never answered: held and asked', () => {
    const d = consent.decide({ needsConsent: true, trusted: true, fingerprint: fp, record: undefined });
    assert.equal(d.kind, 'hold');
    assert.equal(d.ask, true);
    assert.equal(d.hold, 'consent');
    assert.match(d.reason, /waiting for your permission/);
  });
  test('allowed for the same fingerprint: starts', () => {
    assert.deepEqual(consent.decide({ needsConsent: true, trusted: true, fingerprint: fp, record: { fingerprint: fp, allowed: true, at: 1 } }), { kind: 'start' });
  });
  test('allowed for another fingerprint: asked again', () => {
    const d = consent.decide({ needsConsent: true, trusted: true, fingerprint: fp, record: { fingerprint: 'x', allowed: true, at: 1 } });
    assert.equal(d.kind, 'hold');
    assert.equal(d.ask, true);
    assert.equal(d.hold, 'changed');
    assert.match(d.reason, /changed since you allowed it/);
  });
  test("refused for the same fingerprint: held, not asked, can still be allowed", () => {
    const d = consent.decide({ needsConsent: true, trusted: true, fingerprint: fp, record: { fingerprint: fp, allowed: false, at: 1 } });
    assert.equal(d.kind, 'hold');
    assert.deepEqual([d.kind, d.hold, d.ask, d.canAllow], ['hold', 'denied', false, true]);
  });
  test('needsConsent: project-local, and explicit folders from workspace settings', () => {
    const ws = new Set([path.resolve('/w/tools/x')]);
    assert.equal(consent.needsConsent({ source: 'project', dir: '/w/.zot/extensions/a' }, ws), true);
    assert.equal(consent.needsConsent({ source: 'explicit', dir: '/w/tools/x' }, ws), true);
    assert.equal(consent.needsConsent({ source: 'explicit', dir: '/home/me/mine' }, ws), false);
    assert.equal(consent.needsConsent({ source: 'global', dir: '/z/extensions/a' }, ws), false);
    assert.equal(consent.needsConsent({ source: 'global', dir: '/w/.zh/extensions/a' }, ws, true), true, 'a zot home the workspace set');
  });
});

describe('consent fingerprint', () => {
  test('covers exec, args, the executable in the folder and scripts named in args', async () => {
    const dir = extensionFolder('fp', { 'run.sh': '#!/bin/sh\necho\n', 'main.mjs': 'x', 'other.mjs': 'y' }, { exec: './run.sh', args: ['main.mjs', '--flag'] });
    chmodSync(path.join(dir, 'run.sh'), 0o755);
    /** @param {Partial<Manifest>} m */
    const found = (m) => ({ dir, manifest: { name: 'fp', args: [], enabled: true, skills: [], ...m } });
    const base = await fingerprint.runFingerprint(found({ exec: './run.sh', args: ['main.mjs', '--flag'] }));
    assert.match(base, /^[0-9a-f]{64}$/);
    assert.equal(await fingerprint.runFingerprint(found({ exec: './run.sh', args: ['main.mjs', '--flag'] })), base, 'stable');
    assert.notEqual(await fingerprint.runFingerprint(found({ exec: './run.sh', args: ['main.mjs'] })), base, 'args');
    assert.notEqual(await fingerprint.runFingerprint(found({ exec: 'sh', args: ['main.mjs', '--flag'] })), base, 'exec');
    writeFileSync(path.join(dir, 'other.mjs'), 'changed');
    const afterOther = await fingerprint.runFingerprint(found({ exec: './run.sh', args: ['main.mjs', '--flag'] }));
    assert.notEqual(afterOther, base, 'any file in the folder counts: main.mjs may import it');
    appendFileSync(path.join(dir, 'main.mjs'), '// more');
    const afterScript = await fingerprint.runFingerprint(found({ exec: './run.sh', args: ['main.mjs', '--flag'] }));
    assert.notEqual(afterScript, afterOther, 'a script named in args');
    appendFileSync(path.join(dir, 'run.sh'), '# more\n');
    assert.notEqual(await fingerprint.runFingerprint(found({ exec: './run.sh', args: ['main.mjs', '--flag'] })), afterScript, 'the executable');
    const run = await fingerprint.describeRun(found({ exec: './run.sh', args: ['main.mjs', '--flag'] }));
    assert.deepEqual(Object.keys(run.files).sort(), ['extension.json', 'main.mjs', 'other.mjs', 'run.sh']);
    assert.deepEqual(run.skipped, []);
  });
  test('each way code reaches the process changes it: required, node_modules, sourced, imported, node ., --require=, an outside exec', async () => {
    const cases = [
      ['lib/x.js required by index.js', { 'index.js': "require('./lib/x.js')", 'lib/x.js': 'a' }, { exec: 'node', args: ['index.js'] }, 'lib/x.js'],
      ['anything in node_modules', { 'index.js': "require('dep')", 'node_modules/dep/index.js': 'a' }, { exec: 'node', args: ['index.js'] }, 'node_modules/dep/index.js'],
      ['a script run.sh sources', { 'run.sh': '. ./env.sh', 'env.sh': 'a' }, { exec: 'sh', args: ['run.sh'] }, 'env.sh'],
      ['a module main.py imports', { 'main.py': 'import helper', 'helper.py': 'a' }, { exec: 'python3', args: ['main.py'] }, 'helper.py'],
      ['the target of node .', { 'package.json': '{"main":"srv.js"}', 'srv.js': 'a' }, { exec: 'node', args: ['.'] }, 'srv.js'],
      ['--require=./pre.js', { 'index.js': '', 'pre.js': 'a' }, { exec: 'node', args: ['--require=./pre.js', 'index.js'] }, 'pre.js'],
    ];
    for (const [what, files, manifest, changed] of /** @type {[string, Record<string, string>, Pick<Manifest, 'exec' | 'args'>, string][]} */ (cases)) {
      const dir = extensionFolder(`fp-${changed.replace(/\W/g, '')}`, files, manifest);
      const found = { dir, manifest: { name: 'x', enabled: true, skills: [], ...manifest } };
      const before = await fingerprint.runFingerprint(found);
      writeFileSync(path.join(dir, changed), 'b');
      assert.notEqual(await fingerprint.runFingerprint(found), before, what);
    }
  });
  test('a 65 MiB executable changed with its mtime restored: asked again; so is one outside the folder', async () => {
    const dir = extensionFolder('fp-big', {}, { exec: './big' });
    const big = path.join(dir, 'big');
    writeFileSync(big, Buffer.alloc(65 * 1024 * 1024, 1));
    chmodSync(big, 0o755);
    const outsideDir = extensionFolder('fp-outside-bin', {}, { exec: 'x' });
    const outside = path.join(outsideDir, 'tool');
    writeFileSync(outside, '#!/bin/sh\necho one\n');
    chmodSync(outside, 0o755);
    const found = { dir, manifest: { name: 'big', exec: './big', args: [outside], enabled: true, skills: [] } };
    const before = await fingerprint.runFingerprint(found);
    const { mtime, atime } = statSync(big);
    const fd = openSync(big, 'r+');
    writeSync(fd, Buffer.from([2]), 0, 1, 40 * 1024 * 1024);
    closeSync(fd);
    utimesSync(big, atime, mtime);
    const afterBig = await fingerprint.runFingerprint(found);
    assert.notEqual(afterBig, before, 'the content, not size and mtime');
    const o = statSync(outside);
    writeFileSync(outside, '#!/bin/sh\necho two\n');
    utimesSync(outside, o.atime, o.mtime);
    assert.notEqual(await fingerprint.runFingerprint(found), afterBig, 'a file it names outside its folder');
  });
  test('the folder walk is bounded, and what it leaves out is said', async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`node_modules/m${i}.js`, 'x']));
    const dir = extensionFolder('fp-bounded', files, { exec: 'node', args: ['index.js'] });
    const run = await fingerprint.describeRun({ dir, manifest: { name: 'b', exec: 'node', args: ['index.js'], enabled: true, skills: [] } });
    assert.ok(Object.keys(run.files).some((k) => k.startsWith('node_modules/')), 'node_modules is hashed');
    assert.deepEqual(run.skipped, [], 'within the bound nothing is left out');
    const bounded = await fingerprint.describeRun({ dir, manifest: { name: 'b', exec: 'node', args: ['index.js'], enabled: true, skills: [] } }, process.env, { maxFiles: 10, maxBytes: 1 << 20 });
    assert.equal(Object.keys(bounded.files).filter((k) => !path.isAbsolute(k)).length, 9, 'ten within the bound: nine files and the node_modules folder');
    assert.ok(Object.keys(bounded.files).some((k) => k.endsWith(`${path.sep}node`)), 'the executable it names is hashed whatever the bound');
    assert.match(bounded.skipped.join(), /22 files in its folder \(past 10 files or 1 MiB\) are not checked/);
  });
  test('by default the walk takes 20,000 files and 256 MiB; .git is not part of it', async () => {
    assert.equal(fingerprint.MAX_FOLDER_FILES, 20_000);
    assert.equal(fingerprint.MAX_FOLDER_BYTES, 256 * 1024 * 1024);
    const dir = extensionFolder('fp-git', { 'index.js': 'x', '.git/HEAD': 'ref: main', '.git/objects/ab': 'blob' }, { exec: 'node', args: ['index.js'] });
    const found = { dir, manifest: { name: 'g', exec: 'node', args: ['index.js'], enabled: true, skills: [] } };
    const run = await fingerprint.describeRun(found);
    assert.ok('index.js' in run.files);
    assert.deepEqual(Object.keys(run.files).filter((k) => k.includes('.git')), []);
    const before = await fingerprint.runFingerprint(found);
    writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: other');
    assert.equal(await fingerprint.runFingerprint(found), before, 'a commit does not ask again');
    writeFileSync(path.join(dir, 'index.js'), 'y');
    assert.notEqual(await fingerprint.runFingerprint(found), before);
  });
  test('an executable on PATH is named, and its content hashed', async () => {
    const dir = extensionFolder('onpath', {}, { exec: 'sh' });
    const run = await fingerprint.describeRun({ dir, manifest: { name: 'onpath', exec: 'sh', args: [], enabled: true, skills: [] } });
    assert.match(run.resolved, /\/sh$/);
    assert.match(run.files[run.resolved], /^[0-9a-f]{64}$/);
    assert.deepEqual(Object.keys(run.files).sort(), [run.resolved, 'extension.json'].sort());
  });
});

describe('note limiter', () => {
  test('at most three per extension in ten seconds, duplicates once', () => {
    let now = 0;
    // The defaults, as the VS Code layer uses them (new NoteLimiter()).
    const l = new limiter.NoteLimiter(undefined, undefined, () => now);
    /**
     * @param {string} ext
     * @param {string} text
     */
    const admit = (ext, text) => { const a = l.admit(ext, 'warn', text); return a.show ? 'show' : a.why; };
    assert.deepEqual(['a', 'b', 'a', 'c', 'd'].map((t) => admit('x', t)), ['show', 'show', 'duplicate', 'show', 'rate']);
    assert.equal(admit('y', 'a'), 'show', 'per extension');
    now = 9_999;
    assert.equal(admit('x', 'e'), 'rate', 'still inside ten seconds');
    now = 10_001;
    assert.equal(admit('x', 'a'), 'show', 'the window passed');
  });
});

describe('install from folder', () => {
  test('validates, copies under the folder name, reports an existing one', async () => {
    const home = path.join(scratch, 'home');
    const src = extensionFolder('good', { 'index.mjs': '' }, { exec: 'node', args: ['index.mjs'] });
    const check = await install.checkInstall(src, home);
    assert.deepEqual(check, { ok: true, name: 'good', folder: 'good', target: path.join(home, 'extensions', 'good'), exists: false });
    await install.copyInto(src, check.target);
    assert.deepEqual(readdirSync(check.target).sort(), ['extension.json', 'index.mjs']);
    assert.equal(succeeded(await install.checkInstall(src, home)).exists, true);
    writeFileSync(path.join(src, 'index.mjs'), 'v2');
    await install.copyInto(src, check.target);
    assert.equal(readFileSync(path.join(check.target, 'index.mjs'), 'utf8'), 'v2');
    assert.deepEqual(readdirSync(path.join(home, 'extensions')), ['good'], 'no staging folders left');
    const installed = await install.checkInstall(check.target, home);
    assert.equal(installed.ok, false);
    assert.match(installed.reason, /already installed/);
  });
  test('refuses a bad manifest and a non-folder', async () => {
    const bad = extensionFolder('bad', {}, { exec: 42 });
    const r = await install.checkInstall(bad, path.join(scratch, 'home2'));
    assert.equal(r.ok, false);
    assert.match(r.reason, /"exec" must be a string/);
    assert.match(failed(await install.checkInstall(path.join(scratch, 'nope'), scratch)).reason, /is not a folder/);
  });
  test('samples: installs the missing ones, skips the rest', async () => {
    const home = path.join(scratch, 'home3');
    const samples = readdirSync(path.join(repoRoot, 'samples'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    assert.ok(samples.includes('todo') && samples.includes('ask-user'), samples.join(', '));
    const first = await install.installSamples(path.join(repoRoot, 'samples'), home);
    assert.deepEqual(first, { installed: samples, skipped: [], failed: [] });
    const second = await install.installSamples(path.join(repoRoot, 'samples'), home);
    assert.deepEqual(second, { installed: [], skipped: samples, failed: [] });
  });
});

describe('settings files (JSONC)', () => {
  test('comments and trailing commas, strings left alone', () => {
    const text = `{
      // a comment "with quotes"
      "zot.extensionPaths": ["tools/a", "b//c", "d/*e*/",], /* block */
      "x": "a,}", "y": { "z": 1, },
    }`;
    assert.deepEqual(jsonc.parseJsonc(text), { 'zot.extensionPaths': ['tools/a', 'b//c', 'd/*e*/'], x: 'a,}', y: { z: 1 } });
    assert.deepEqual(jsonc.parseJsonc(''), {});
    assert.equal(jsonc.parseJsonc('{ nope'), undefined);
    assert.deepEqual(jsonc.parseJsonc(String.raw`{"a": "q\"//x"} // end`), { a: 'q"//x' });
  });
});
