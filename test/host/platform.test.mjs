// The process layer's platform decisions, for every platform on any machine:
// which command line starts an extension, which command ends its tree, and
// what a manifest's exec resolves to (Windows cannot run the suites here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failed, lib } from '../helpers.mjs';

const { commandLine, killPlan, resolveExec, candidateExtensions } = lib;

test('POSIX: the program runs as is, in its own process group', () => {
  for (const platform of /** @type {const} */ (['linux', 'darwin'])) {
    assert.deepEqual(commandLine('/usr/bin/node', ['index.js', 'a b'], platform), { file: '/usr/bin/node', args: ['index.js', 'a b'], detached: true, verbatim: false });
  }
});

test('Windows: an .exe runs directly; a .cmd or .bat shim runs through cmd.exe with every argument quoted for it', () => {
  assert.deepEqual(commandLine('C:\\node\\node.exe', ['index.js'], 'win32'), { file: 'C:\\node\\node.exe', args: ['index.js'], detached: false, verbatim: false });
  const shim = commandLine('C:\\Program Files\\nodejs\\npx.cmd', ['-y', 'my ext', 'a&b'], 'win32', { ComSpec: 'C:\\Windows\\system32\\cmd.exe' });
  assert.equal(shim.file, 'C:\\Windows\\system32\\cmd.exe');
  assert.equal(shim.verbatim, true);
  assert.deepEqual(shim.args.slice(0, 3), ['/d', '/s', '/c']);
  assert.equal(shim.args[3], '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"my^ ext^" ^"a^&b^""');
  assert.equal(commandLine('run.BAT', [], 'win32').file, 'cmd.exe', 'without ComSpec, cmd.exe from PATH');
});

test('the kill: the process group by signal on POSIX; taskkill over the tree on Windows, /F to force', () => {
  assert.deepEqual(killPlan(4242, false, 'linux'), { kind: 'group', pgid: 4242, signal: 'SIGTERM' });
  assert.deepEqual(killPlan(4242, true, 'darwin'), { kind: 'group', pgid: 4242, signal: 'SIGKILL' });
  assert.deepEqual(killPlan(4242, false, 'win32'), { kind: 'command', file: 'taskkill', args: ['/PID', '4242', '/T'] });
  assert.deepEqual(killPlan(4242, true, 'win32'), { kind: 'command', file: 'taskkill', args: ['/PID', '4242', '/T', '/F'] });
});

test('Windows exec resolution: PATH entries in order, each with PATHEXT, a name that has an extension as is', () => {
  const files = new Set(['C:\\tools\\npx.CMD', 'C:\\bin\\npx.exe', 'C:\\ext\\run.BAT', 'C:\\tools\\node.exe']);
  const check = (f) => (files.has(f) ? undefined : 'does not exist');
  const env = { Path: 'C:\\tools;C:\\bin', PATHEXT: '.EXE;.CMD' };
  assert.deepEqual(resolveExec('npx', 'C:\\ext', env, 'win32', check), { ok: true, file: 'C:\\tools\\npx.CMD', inFolder: false });
  assert.deepEqual(resolveExec('node.exe', 'C:\\ext', env, 'win32', check), { ok: true, file: 'C:\\tools\\node.exe', inFolder: false });
  assert.deepEqual(resolveExec('.\\run', 'C:\\ext', { PATHEXT: '.BAT' }, 'win32', check), { ok: true, file: 'C:\\ext\\run.BAT', inFolder: true });
  assert.match(failed(resolveExec('zot-nothing', 'C:\\ext', env, 'win32', check)).error, /not found on PATH/);
  assert.deepEqual(candidateExtensions('tool.cmd', '.EXE;.CMD'), ['']);
  assert.deepEqual(candidateExtensions('tool', '.EXE;.CMD'), ['', '.EXE', '.CMD']);
});

test('POSIX exec resolution never adds extensions', () => {
  const check = (f) => (f === '/opt/bin/tool' ? undefined : 'does not exist');
  assert.deepEqual(resolveExec('tool', '/ext', { PATH: '/usr/bin:/opt/bin', PATHEXT: '.EXE' }, 'linux', check), { ok: true, file: '/opt/bin/tool', inFolder: false });
  assert.match(failed(resolveExec('./tool', '/ext', {}, 'linux', check)).error, /\(\/ext\/tool\) does not exist/);
});
