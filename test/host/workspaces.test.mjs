// Multi-root workspaces: every project folder's .zot/extensions in the
// folder order, each project extension with its own folder as cwd, and
// folders added and removed without restarting the other extensions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, lib, makeExt, startHost, tmpdir, waitFor } from '../helpers.mjs';

const { discoverExtensions } = lib;

/** Two project folders, a zot home and a folder of explicit extensions. */
function workspace() {
  const a = tmpdir('zot-folder-a-');
  const b = tmpdir('zot-folder-b-');
  const home = tmpdir('zot-home-');
  const explicitRoot = tmpdir('zot-explicit-');
  /** @param {string} folder */
  const extRoot = (folder) => path.join(folder, '.zot', 'extensions');
  return { a, b, home, explicitRoot, extRoot, globalRoot: path.join(home, 'extensions') };
}

/** @param {string} folder @param {string} name @param {Parameters<typeof makeExt>[2]} [cfg] */
const projectExt = (folder, name, cfg = {}) => makeExt(path.join(folder, '.zot', 'extensions'), name, cfg);
/** @param {import('../helpers.mjs').TestHost} host @param {string} name */
const helloAcks = (host, name) => host.received(name, 'hello_ack');

test('load order: explicit, then each folder\'s project extensions in folder order, then global', () => {
  const w = workspace();
  makeExt(w.globalRoot, 'g1');
  projectExt(w.b, 'b2');
  projectExt(w.b, 'b1');
  projectExt(w.a, 'a1');
  const ex = makeExt(w.explicitRoot, 'ex');
  const found = discoverExtensions({ projectDir: w.a, projectDirs: [w.a, w.b], zotHome: w.home, explicit: [ex] });
  assert.deepEqual(found.map((f) => [f.name, f.source, f.projectDir, f.rank]), [
    ['ex', 'explicit', undefined, 0],
    ['a1', 'project', w.a, 1],
    ['b1', 'project', w.b, 2], ['b2', 'project', w.b, 3],
    ['g1', 'global', undefined, 4],
  ]);
  // The folder order is the workspace's, not the alphabet's.
  assert.deepEqual(discoverExtensions({ projectDir: w.b, projectDirs: [w.b, w.a], zotHome: w.home }).map((f) => f.name), ['b1', 'b2', 'a1', 'g1']);
  // No project folder: only explicit and global ones, even with a .zot/extensions in the base folder.
  assert.deepEqual(discoverExtensions({ projectDir: w.a, projectDirs: [], zotHome: w.home, explicit: [ex] }).map((f) => f.name), ['ex', 'g1']);
  // Without projectDirs the base folder is the one project, as for the CLI.
  assert.deepEqual(discoverExtensions({ projectDir: w.a, zotHome: w.home }).map((f) => f.name), ['a1', 'g1']);
});

test('a name in two folders: the first folder\'s is loaded, the other is disabled with a diagnostic naming both folders', async (t) => {
  const w = workspace();
  projectExt(w.a, 'same-folder');
  projectExt(w.b, 'same-folder');
  projectExt(w.a, 'a-tool', { name: 'same-name' });
  projectExt(w.b, 'b-tool', { name: 'same-name' });
  const found = discoverExtensions({ projectDir: w.a, projectDirs: [w.a, w.b], zotHome: w.home });
  const inB = found.filter((f) => f.projectDir === w.b);
  assert.deepEqual(inB.map((f) => [f.name, f.shadowedBy]), [
    ['same-name', path.join(w.extRoot(w.a), 'a-tool')],
    ['same-folder', path.join(w.extRoot(w.a), 'same-folder')],
  ]);

  const host = await startHost(t, [], { cwd: w.a, projectDirs: [w.a, w.b], zotHome: w.home, discover: true });
  /** @param {string} dir */
  const byDir = (dir) => host.extensions.find((rt) => rt.dir === dir);
  for (const folder of ['same-folder', 'b-tool']) {
    const loser = byDir(path.join(w.extRoot(w.b), folder));
    assert.ok(loser);
    assert.equal(lib.stateOf(loser), 'disabled');
    const note = loser.problems.map((p) => p.message).find((m) => m.includes('workspace folders'));
    assert.ok(note, `a clash diagnostic on ${folder}: ${JSON.stringify(loser.problems)}`);
    // It names the copy that runs (the first folder's), so the user edits that one.
    const name = folder === 'b-tool' ? 'same-name' : folder;
    assert.equal(note, `workspace folders ${w.a} and ${w.b} both have a zot extension named "${name}": the one in ${w.a} comes first in the folder order and is the one loaded; this one (${path.join(w.extRoot(w.b), folder)}) is not`);
  }
  for (const folder of ['same-folder', 'a-tool']) assert.equal(lib.stateOf(byDir(path.join(w.extRoot(w.a), folder))), 'ready');
});

test('each project extension gets its own folder as cwd in hello_ack; explicit and global ones get the first folder', async (t) => {
  const w = workspace();
  projectExt(w.a, 'in-a');
  projectExt(w.b, 'in-b');
  makeExt(w.globalRoot, 'everywhere');
  const ex = makeExt(w.explicitRoot, 'pointed-at');
  const host = await startHost(t, [ex], { cwd: w.a, projectDirs: [w.a, w.b], zotHome: w.home, discover: true });
  assert.deepEqual(host.extensions.map((rt) => [rt.name, lib.stateOf(rt)]), [['pointed-at', 'ready'], ['in-a', 'ready'], ['in-b', 'ready'], ['everywhere', 'ready']]);
  /** @param {string} name */
  const cwdOf = async (name) => (await waitFor(`hello_ack of ${name}`, () => helloAcks(host, name)[0])).cwd;
  assert.equal(await cwdOf('in-a'), w.a);
  assert.equal(await cwdOf('in-b'), w.b);
  assert.equal(await cwdOf('everywhere'), w.a);
  assert.equal(await cwdOf('pointed-at'), w.a);
  // The process itself runs in its own extension folder, as zot starts it.
  assert.equal(fs.realpathSync(fs.readlinkSync(`/proc/${host.get('in-b')?.pid}/cwd`)), fs.realpathSync(path.join(w.extRoot(w.b), 'in-b')));
});

test('no project folder: global and explicit extensions run with the host\'s cwd, and no .zot/extensions is read', async (t) => {
  const w = workspace();
  const home = tmpdir('zot-user-home-');
  projectExt(home, 'would-be-project');
  makeExt(w.globalRoot, 'everywhere');
  const host = await startHost(t, [], { cwd: home, projectDirs: [], zotHome: w.home, discover: true });
  assert.deepEqual(host.extensions.map((rt) => rt.name), ['everywhere']);
  assert.deepEqual(host.projectDirs, []);
  assert.equal((await waitFor('hello_ack', () => helloAcks(host, 'everywhere')[0])).cwd, home);
});

test('removing a folder stops only its extensions; adding it back starts them again; the others keep their process', async (t) => {
  const w = workspace();
  projectExt(w.a, 'in-a');
  projectExt(w.b, 'in-b', { commands: [{ name: 'from-b' }] });
  makeExt(w.globalRoot, 'everywhere');
  /** @type {string[]} */
  const gated = [];
  /** @type {import('../helpers.mjs').Gate} */
  const gate = (f) => {
    gated.push(f.name);
    return { start: true };
  };
  const host = await startHost(t, [], { cwd: w.a, projectDirs: [w.a, w.b], zotHome: w.home, discover: true, gate });
  const pids = () => Object.fromEntries(host.extensions.map((rt) => [rt.name, rt.pid]));
  const before = pids();
  assert.ok(before['in-a'] && before['in-b'] && before.everywhere, JSON.stringify(before));
  // Asked when found (for name clashes) and again by each launch.
  assert.deepEqual([...new Set(gated)].sort(), ['everywhere', 'in-a', 'in-b']);
  assert.ok(host.findCommand('from-b'));
  gated.length = 0;

  await host.setProjectDirs([w.a]);
  assert.deepEqual(host.projectDirs, [w.a]);
  assert.deepEqual(host.extensions.map((rt) => rt.name), ['in-a', 'everywhere']);
  assert.equal(alive(before['in-b']), false, 'the removed folder\'s process is gone');
  assert.equal(host.findCommand('from-b'), undefined, 'its command went with it');
  assert.deepEqual(pids(), { 'in-a': before['in-a'], everywhere: before.everywhere });
  assert.deepEqual(gated, [], 'nothing else was gated again');

  await host.setProjectDirs([w.a, w.b]);
  assert.deepEqual(host.extensions.map((rt) => [rt.name, lib.stateOf(rt)]), [['in-a', 'ready'], ['in-b', 'ready'], ['everywhere', 'ready']]);
  assert.deepEqual([...new Set(gated)], ['in-b'], 'only the added folder\'s extension was gated');
  const after = pids();
  assert.notEqual(after['in-b'], before['in-b']);
  assert.equal(after['in-a'], before['in-a']);
  assert.equal(after.everywhere, before.everywhere);
  assert.equal(helloAcks(host, 'in-a').length, 1, 'in-a said hello once: never restarted');
  assert.equal(helloAcks(host, 'everywhere').length, 1);
  assert.equal((await waitFor('the new hello_ack of in-b', () => helloAcks(host, 'in-b')[1])).cwd, w.b);
  assert.ok(host.findCommand('from-b'));
});

test('a folder added in front takes a clashing name over; the one it displaced stops, the rest keep running', async (t) => {
  const w = workspace();
  projectExt(w.a, 'in-a');
  projectExt(w.a, 'shared');
  projectExt(w.b, 'shared');
  const host = await startHost(t, [], { cwd: w.a, projectDirs: [w.a], zotHome: w.home, discover: true });
  const inA = host.get('in-a')?.pid;
  assert.ok(inA);
  const shared = host.get('shared');
  assert.ok(shared);
  assert.equal(shared.dir, path.join(w.extRoot(w.a), 'shared'));
  const sharedPid = shared.pid;
  assert.ok(sharedPid);
  // b comes first now: its "shared" is loaded.
  await host.setProjectDirs([w.b, w.a]);
  const winner = host.extensions.find((rt) => rt.name === 'shared' && lib.stateOf(rt) === 'ready');
  assert.ok(winner);
  assert.equal(winner.dir, path.join(w.extRoot(w.b), 'shared'));
  const loser = host.extensions.find((rt) => rt.dir === path.join(w.extRoot(w.a), 'shared'));
  assert.ok(loser);
  assert.equal(lib.stateOf(loser), 'disabled');
  // The diagnostic names b's copy as the one loaded now, and a's as the one that is not.
  assert.deepEqual(loser.problems.map((p) => p.message).filter((m) => m.startsWith('workspace folders')),
    [`workspace folders ${w.b} and ${w.a} both have a zot extension named "shared": the one in ${w.b} comes first in the folder order and is the one loaded; this one (${loser.dir}) is not`]);
  assert.deepEqual(winner.problems.filter((p) => p.message.startsWith('workspace folders')), [], 'the copy that runs has none');
  assert.equal(alive(sharedPid), false);
  assert.equal(host.get('in-a')?.pid, inA, 'in-a kept its process');
  assert.equal((await waitFor('hello_ack', () => helloAcks(host, 'shared').find((f) => f.cwd === w.b))).cwd, w.b);
});

test('dispose after folder changes leaves no process', async (t) => {
  const w = workspace();
  projectExt(w.a, 'in-a');
  projectExt(w.b, 'in-b');
  const host = await startHost(t, [], { cwd: w.a, projectDirs: [w.a], zotHome: w.home, discover: true });
  await host.setProjectDirs([w.a, w.b]);
  const pids = host.extensions.map((rt) => rt.pid);
  assert.equal(pids.length, 2);
  await host.dispose();
  assert.deepEqual(pids.filter((pid) => pid !== undefined && alive(pid)), []);
});
