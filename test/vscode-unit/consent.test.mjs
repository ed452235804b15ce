// Consent holds at every launch: a project extension allowed as v1 and then
// changed on disk is held, whatever starts it again (a crash restart, Start,
// Restart, a debugger's restart, a watcher's restart), and its new code never
// runs. The gate here is the product's own pieces (decide + runFingerprint),
// over real child processes. Data is not code: what an extension saves in its
// own folder does not ask again; a change to its code does.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleSources, lib, ROOT, sleep, startHost, tmpdir, waitFor } from '../helpers.mjs';

/** @typedef {import('../../out/types/host/index.js').FoundExtension} FoundExtension */
/** @typedef {import('../helpers.mjs').TestHost} TestHost */

/** @type {typeof import('../../src/vscode/trust/consent')} */
let consent;
/** @type {typeof import('../../src/vscode/trust/fingerprint')} */
let fingerprint;
before(async () => {
  ({ consent, fingerprint } = await bundleSources(tmpdir('zot-consent-bundle-'), 'vscode/trust', ['consent', 'fingerprint']));
});

/** The decision the editor's gate makes, over a store the test can read: every call is counted. */
function makeGate() {
  /** @type {import('../../src/vscode/trust/consent').ConsentStore} */
  const store = {};
  const gate = Object.assign(/** @type {import('../helpers.mjs').Gate} */ (async (found) => {
    gate.asked++;
    const needs = consent.needsConsent(found, new Set());
    const fp = needs ? await fingerprint.runFingerprint(found) : '';
    const d = consent.decide({ needsConsent: needs, trusted: true, fingerprint: fp, record: store[consent.consentKey(found.dir)] });
    return d.kind === 'start' ? { start: true } : { start: false, reason: d.reason, hold: d.hold };
  }), {
    asked: 0,
    /** @param {Pick<FoundExtension, 'dir' | 'source' | 'manifest'>} found */
    allow: async (found) => {
      store[consent.consentKey(found.dir)] = { fingerprint: await fingerprint.runFingerprint(found), allowed: true, at: Date.now() };
    },
  });
  return gate;
}

/**
 * An extension that leaves `ran-<version>` in `marks` when its code runs, and crashes on its `crash` tool.
 * @param {string} version
 * @param {string} marks
 */
function program(version, marks) {
  return `import { writeFileSync } from 'node:fs';
const VERSION = ${JSON.stringify(version)};
writeFileSync(${JSON.stringify(marks)} + '/ran-' + VERSION, String(process.pid));
const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
send({ type: 'hello', name: 'proj', version: VERSION, capabilities: [] });
send({ type: 'register_tool', name: 'crash', description: 'exits', schema: { type: 'object' } });
send({ type: 'ready' });
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) {
    const f = JSON.parse(buf.slice(0, i));
    if (f.type === 'tool_call') process.exit(7);
    if (f.type === 'shutdown') process.exit(0);
  }
});
process.stdin.on('end', () => process.exit(0));
`;
}

function project() {
  const root = tmpdir('zot-consent-');
  const dir = path.join(root, '.zot', 'extensions', 'proj');
  const marks = path.join(root, 'marks');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(marks);
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'proj', version: '1.0.0', exec: 'node', args: ['index.mjs'] }));
  fs.writeFileSync(path.join(dir, 'index.mjs'), program('v1', marks));
  const ran = () => fs.readdirSync(marks).sort();
  return { root, dir, marks, ran };
}

/**
 * A host over the project with v1 allowed and running.
 * @param {import('node:test').TestContext} t
 * @param {Partial<import('../../out/types/host/index.js').Timing>} [timing]
 */
async function allowedV1(t, timing = {}) {
  const p = project();
  const gate = makeGate();
  await gate.allow({ dir: p.dir, source: 'project', manifest: { name: 'proj', exec: 'node', args: ['index.mjs'], enabled: true, skills: [] } });
  const host = await startHost(t, [], { cwd: p.root, discover: true, gate, timing });
  await waitFor('v1 running', () => lib.stateOf(host.get('proj')) === 'ready', 5000);
  assert.deepEqual(p.ran(), ['ran-v1']);
  return { ...p, gate, host };
}

/** @param {TestHost} host */
const heldAsChanged = (host) => {
  const rt = host.get('proj');
  assert.ok(rt, 'proj is loaded');
  return rt.status.kind === 'held' && rt.status.reason === 'changed' && rt;
};

describe('consent is checked at every launch', () => {
  test('a crash restart of a changed project extension holds it: v2 never runs', async (t) => {
    const { host, dir, marks, ran, gate } = await allowedV1(t);
    const askedBefore = gate.asked;
    fs.writeFileSync(path.join(dir, 'index.mjs'), program('v2', marks));
    const outcome = await host.runToolCall('crash', {});
    assert.equal(outcome.outcome, 'disconnected');
    const rt = await waitFor('held after the crash', () => heldAsChanged(host), 5000);
    assert.match(rt.error ?? '', /changed since you allowed it/);
    assert.ok(gate.asked > askedBefore, 'the gate was asked for the crash restart');
    await sleep(300);
    assert.deepEqual(ran(), ['ran-v1'], 'the changed code never ran');
    const after = host.get('proj');
    assert.ok(after, 'proj is loaded');
    assert.equal(after.pid, undefined, 'no process');
  });

  test('Restart, Stop then Start, and a restart with a debugger\'s environment all hold a changed extension', async (t) => {
    const { host, dir, marks, ran } = await allowedV1(t);
    fs.writeFileSync(path.join(dir, 'index.mjs'), program('v2', marks));
    await host.restartExtension('proj');
    assert.ok(heldAsChanged(host), `Restart holds it (${lib.stateOf(host.get('proj'))})`);
    fs.writeFileSync(path.join(dir, 'index.mjs'), program('v3', marks));
    await host.startExtension('proj');
    assert.ok(heldAsChanged(host), 'Start holds it');
    host.setLaunchEnv('proj', { NODE_OPTIONS: '--inspect=127.0.0.1:0' });
    await host.restartExtension('proj');
    assert.ok(heldAsChanged(host), 'the debugger\'s restart holds it');
    await host.reload();
    assert.ok(heldAsChanged(host), 'Reload holds it');
    assert.deepEqual(ran(), ['ran-v1'], 'neither v2 nor v3 ran');
  });

  test('a watcher\'s restart (the folder changed) holds it, through the same launch', async (t) => {
    const { host, dir, marks, ran } = await allowedV1(t);
    /** @type {Promise<void>[]} */
    const restarts = [];
    const watcher = new lib.FolderWatcher((name) => restarts.push(host.restartExtension(name)), () => undefined, 50);
    t.after(() => watcher.dispose());
    watcher.set([{ name: 'proj', dir }]);
    await sleep(100);
    fs.writeFileSync(path.join(dir, 'index.mjs'), program('v2', marks));
    await waitFor('the watcher to restart it', () => restarts.length > 0, 5000);
    await Promise.all(restarts);
    assert.ok(heldAsChanged(host), lib.stateOf(host.get('proj')));
    assert.deepEqual(ran(), ['ran-v1']);
  });

  test('allowed again, the new code starts; unchanged code restarts after a crash without a question', async (t) => {
    const { host, dir, marks, ran, gate } = await allowedV1(t);
    await host.runToolCall('crash', {});
    await waitFor('restarted', () => ran().length === 1 && lib.stateOf(host.get('proj')) === 'ready' && host.get('proj')?.pid, 5000);
    fs.writeFileSync(path.join(dir, 'index.mjs'), program('v2', marks));
    await host.restartExtension('proj');
    assert.ok(heldAsChanged(host));
    const held = host.get('proj');
    assert.ok(held, 'proj is loaded');
    await gate.allow(held.found);
    await host.startExtension('proj');
    await waitFor('v2 running', () => lib.stateOf(host.get('proj')) === 'ready', 5000);
    assert.deepEqual(ran(), ['ran-v1', 'ran-v2']);
  });

  test('a stop while the gate is being asked wins: nothing is spawned', async (t) => {
    const p = project();
    /** @type {(() => void) | undefined} */
    let release;
    let calls = 0;
    // Discovery asks first (for name clashes); the launch asks again, and that answer is held back.
    /** @type {import('../helpers.mjs').Gate} */
    const gate = () => (++calls === 1 ? { start: true } : new Promise((r) => (release = () => r({ start: true }))));
    const host = await startHost(t, [], { cwd: p.root, discover: true, gate, noStart: true });
    const starting = host.start();
    const releaseGate = await waitFor('the launch to ask the gate', () => release, 2000);
    assert.equal(lib.stateOf(host.get('proj')), 'starting', 'shown as starting while the gate is asked');
    assert.equal(host.get('proj')?.status.kind, 'checking');
    await host.stopExtension('proj');
    releaseGate();
    await starting;
    await sleep(200);
    assert.equal(lib.stateOf(host.get('proj')), 'stopped');
    assert.deepEqual(p.ran(), []);
  });

  test('a gate that throws runs nothing: held with the reason, at load and at a later launch', async (t) => {
    const p = project();
    let fails = true;
    /** @type {import('../helpers.mjs').Gate} */
    const gate = () => { if (fails) throw new Error('store unreadable'); return { start: true }; };
    const host = await startHost(t, [], { cwd: p.root, discover: true, gate });
    assert.equal(lib.stateOf(host.get('proj')), 'held');
    assert.equal(host.get('proj')?.error, 'could not check whether it may run: store unreadable');
    fails = false;
    await host.startExtension('proj');
    await waitFor('running once the gate answers', () => lib.stateOf(host.get('proj')) === 'ready', 5000);
    fails = true;
    await host.restartExtension('proj');
    assert.equal(lib.stateOf(host.get('proj')), 'held');
    assert.equal(host.get('proj')?.error, 'could not check whether it may run: store unreadable');
    assert.deepEqual(p.ran(), ['ran-v1']);
  });
});

/** @type {(cwd: string, ...args: string[]) => Buffer} */
const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' });

describe('data is not code', () => {
  /** The shipped todo sample as a project extension of a git repository. */
  function todoProject(commit = true) {
    const root = tmpdir('zot-todo-project-');
    const dir = path.join(root, '.zot', 'extensions', 'todo');
    fs.cpSync(path.join(ROOT, 'samples', 'todo'), dir, { recursive: true });
    git(root, 'init', '-q');
    if (commit) {
      git(root, 'add', '.');
      git(root, 'commit', '-qm', 'the todo extension');
    }
    return { root, dir };
  }

  test('the shipped todo sample is not asked about again after todo_add; a changed index.mjs is', async (t) => {
    const { root, dir } = todoProject();
    const gate = makeGate();
    const host = await startHost(t, [], { cwd: root, discover: true, gate, noStart: true });
    await host.start();
    assert.equal(host.get('todo')?.status.kind, 'held', 'asked before it first runs');
    const held = host.get('todo');
    assert.ok(held, 'todo is loaded');
    await gate.allow(held.found);
    await host.startExtension('todo');
    await waitFor('todo ready', () => lib.stateOf(host.get('todo')) === 'ready' || lib.stateOf(host.get('todo')) === 'auto_ready', 5000);
    const added = await host.runToolCall('todo_add', { text: 'buy milk' });
    assert.equal(added.outcome, 'completed', JSON.stringify(added));
    assert.ok(fs.existsSync(path.join(dir, 'todos.json')), 'it saved its data in its own folder (data_dir)');
    await host.restartExtension('todo');
    await waitFor('todo ready again', () => /** @type {(string | undefined)[]} */ (['ready', 'auto_ready']).includes(lib.stateOf(host.get('todo'))), 5000);
    const list = await host.runToolCall('todo_list', {});
    assert.match(JSON.stringify(list.content), /buy milk/, 'the same data, read back after the restart');
    fs.appendFileSync(path.join(dir, 'index.mjs'), '\n// changed\n');
    await host.restartExtension('todo');
    assert.deepEqual(host.get('todo')?.status, { kind: 'held', reason: 'changed', message: host.get('todo')?.error });
  });

  test('the rule, file by file: untracked data is left out; tracked files, untracked code and links always count', async () => {
    const { root, dir } = todoProject();
    const found = { dir, manifest: { name: 'todo', exec: 'node', args: ['index.mjs'], enabled: true, skills: [] } };
    const base = await fingerprint.runFingerprint(found);
    const same = [
      ['todos.json', '{"items":[]}'],
      ['todos.json.123.tmp', 'x'],
      ['notes/today.txt', 'x'],
      ['cache.db', 'x'],
    ];
    for (const [file, body] of same) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), body);
      assert.equal(await fingerprint.runFingerprint(found), base, `untracked data ${file} does not ask again`);
    }
    const run = await fingerprint.describeRun(found);
    assert.equal(run.git, true);
    assert.deepEqual(run.data, ['cache.db', path.join('notes', 'today.txt'), 'todos.json', 'todos.json.123.tmp']);
    let prev = base;
    const changes = [
      ['a tracked file', () => fs.appendFileSync(path.join(dir, 'README.md'), 'more')],
      ['an untracked script', () => fs.writeFileSync(path.join(dir, 'helper.mjs'), 'export {}')],
      ['an untracked Python module', () => fs.writeFileSync(path.join(dir, 'helper.py'), '')],
      ['an untracked executable without a suffix', () => { fs.writeFileSync(path.join(dir, 'tool'), '#!/bin/sh\n'); fs.chmodSync(path.join(dir, 'tool'), 0o755); }],
      ['an untracked package.json', () => fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')],
      ['anything under node_modules', () => { fs.mkdirSync(path.join(dir, 'node_modules', 'dep'), { recursive: true }); fs.writeFileSync(path.join(dir, 'node_modules', 'dep', 'data.json'), '{}'); }],
      ['a data file that git now tracks', () => { git(root, 'add', '-f', path.join(dir, 'todos.json')); }],
      ['a tracked data file changed', () => fs.writeFileSync(path.join(dir, 'todos.json'), '{"items":[1]}')],
    ];
    for (const [what, change] of /** @type {[string, () => void][]} */ (changes)) {
      change();
      const now = await fingerprint.runFingerprint(found);
      assert.notEqual(now, prev, what);
      prev = now;
    }
  });

  test('which untracked files are code: every name and suffix of the rule, each beside a file that is data', () => {
    // The rule as docs/SECURITY.md states it, entry by entry: each of these decides what runs.
    const names = ['extension.json', 'package.json', 'package-lock.json', 'npm-shrinkwrap.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnp.cjs',
      'go.mod', 'go.sum', 'go.work', 'pyproject.toml', 'setup.cfg', 'requirements.txt', 'pyvenv.cfg', 'Pipfile', 'Pipfile.lock',
      'Makefile', 'Gemfile', 'Gemfile.lock', 'Cargo.toml', 'Cargo.lock', '.env', 'tsconfig.json', 'deno.json', 'bunfig.toml'];
    for (const name of names) {
      assert.equal(fingerprint.isCodeFile(name, 0o644), true, name);
      assert.equal(fingerprint.isCodeFile(path.join('sub', name), 0o644), true, `sub/${name}`);
      // Next to it: the same name as data (a backup, a note about it) is not code.
      assert.equal(fingerprint.isCodeFile(`${name}.bak`, 0o644), false, `${name}.bak`);
      assert.equal(fingerprint.isCodeFile(`notes-${name.replace(/^\./, '')}.txt`, 0o644), false, `notes about ${name}`);
    }
    const suffixes = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx', '.node', '.wasm', '.map',
      '.py', '.pyc', '.pyo', '.pyd', '.pyi', '.pth', '.so', '.dylib', '.dll', '.exe', '.a',
      '.sh', '.bash', '.zsh', '.fish', '.ps1', '.bat', '.cmd', '.go', '.rb', '.pl', '.pm', '.php', '.lua', '.tcl',
      '.jar', '.class', '.rs', '.c', '.h', '.cc', '.cpp', '.java', '.kt', '.swift', '.cs', '.r', '.jl', '.ex', '.exs', '.erl', '.beam'];
    for (const suffix of suffixes) {
      assert.equal(fingerprint.isCodeFile(`lib${suffix}`, 0o644), true, suffix);
      assert.equal(fingerprint.isCodeFile(`LIB${suffix.toUpperCase()}`, 0o644), true, `${suffix} in capitals`);
      assert.equal(fingerprint.isCodeFile(`lib${suffix}.json`, 0o644), false, `lib${suffix}.json is data`);
    }
    for (const folder of ['node_modules', 'site-packages', 'dist-packages', '.venv', 'venv', '__pycache__', 'vendor']) {
      assert.equal(fingerprint.isCodeFile(path.join(folder, 'x', 'data.json'), 0o644), true, folder);
      assert.equal(fingerprint.isCodeFile(path.join(`${folder}-notes`, 'data.json'), 0o644), false, `${folder}-notes`);
    }
    assert.equal(fingerprint.isCodeFile('tool', 0o755), true, 'an executable without a suffix');
    assert.equal(fingerprint.isCodeFile('todos.json', 0o644), false);
  });

  test('outside a git work tree every file counts, data too', async () => {
    const dir = path.join(tmpdir('zot-nogit-'), 'todo');
    fs.cpSync(path.join(ROOT, 'samples', 'todo'), dir, { recursive: true });
    const found = { dir, manifest: { name: 'todo', exec: 'node', args: ['index.mjs'], enabled: true, skills: [] } };
    const base = await fingerprint.runFingerprint(found);
    assert.equal((await fingerprint.describeRun(found)).git, false);
    fs.writeFileSync(path.join(dir, 'todos.json'), '{}');
    assert.notEqual(await fingerprint.runFingerprint(found), base);
  });

  test('git\'s own variables and a repository\'s fsmonitor hook do not decide or run', async () => {
    const { root, dir } = todoProject();
    const ranHook = path.join(root, 'hook-ran');
    const hook = path.join(root, 'monitor.sh');
    fs.writeFileSync(hook, `#!/bin/sh\ntouch ${ranHook}\n`);
    fs.chmodSync(hook, 0o755);
    git(root, 'config', 'core.fsmonitor', hook);
    const elsewhere = tmpdir('zot-other-git-');
    git(elsewhere, 'init', '-q');
    const tracked = await fingerprint.trackedFiles(dir, { ...process.env, GIT_DIR: path.join(elsewhere, '.git'), GIT_WORK_TREE: elsewhere });
    assert.ok(tracked?.has('index.mjs'), 'the repository of the folder answers, not GIT_DIR');
    assert.equal(fs.existsSync(ranHook), false, 'the repository\'s fsmonitor command did not run');
  });
});

describe('symlinks count as what they point to', () => {
  test('a linked file outside the folder: its content; a linked folder: its files; a loop and a dangling link: said', async () => {
    const outside = tmpdir('zot-outside-');
    fs.writeFileSync(path.join(outside, 'lib.mjs'), 'export const a = 1;');
    fs.mkdirSync(path.join(outside, 'pkg'));
    fs.writeFileSync(path.join(outside, 'pkg', 'index.mjs'), 'export {}');
    const dir = tmpdir('zot-links-');
    fs.writeFileSync(path.join(dir, 'index.mjs'), "import './lib.mjs';");
    fs.symlinkSync(path.join(outside, 'lib.mjs'), path.join(dir, 'lib.mjs'));
    fs.symlinkSync(path.join(outside, 'pkg'), path.join(dir, 'pkg'));
    fs.symlinkSync('.', path.join(dir, 'loop'));
    fs.symlinkSync(path.join(outside, 'gone'), path.join(dir, 'dangling'));
    const found = { dir, manifest: { name: 'l', exec: 'node', args: ['index.mjs'], enabled: true, skills: [] } };
    const base = await fingerprint.runFingerprint(found);
    const run = await fingerprint.describeRun(found);
    assert.match(run.files['lib.mjs'], /^link:\S+lib\.mjs [0-9a-f]{64}$/);
    assert.match(run.files[path.join('pkg', 'index.mjs')], /^[0-9a-f]{64}$/);
    assert.match(run.files.dangling, /\(missing\)$/);
    assert.match(run.files.loop, /\(folder\)$/);
    fs.writeFileSync(path.join(outside, 'lib.mjs'), 'export const a = 2;');
    const afterLib = await fingerprint.runFingerprint(found);
    assert.notEqual(afterLib, base, 'the linked file\'s content');
    fs.writeFileSync(path.join(outside, 'pkg', 'index.mjs'), 'export const b = 1;');
    assert.notEqual(await fingerprint.runFingerprint(found), afterLib, 'a file in the linked folder');
  });
});

