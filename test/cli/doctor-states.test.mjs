// Every state `zot-host doctor --json` can print, each reached by a real run
// at the default timings, and docs/CLI.md's list of them is exactly that set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, makeExt, ROOT, tmpdir, waitFor } from '../helpers.mjs';

/**
 * doctor --json over the given folders; `onSpawn` may signal it.
 * @param {string[]} dirs
 * @param {(child: import('node:child_process').ChildProcess, home: string) => void} [onSpawn]
 * @returns {Promise<{ code: number | null, stderr: string, states: [string, string][] }>}
 */
function doctor(dirs, onSpawn) {
  const home = tmpdir('zot-home-');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'doctor', '--json', '--no-discover', '--home', home, ...dirs.flatMap((d) => ['--ext', d])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr, states: /** @type {{ extensions: import('../../out/types/host/index.js').ExtensionReport[] }} */ (JSON.parse(stdout)).extensions.map((e) => [e.name, e.state]) }));
    onSpawn?.(child, home);
  });
}

/** The states docs/CLI.md says doctor --json prints, in the order it lists them. */
function readmeStates() {
  const readme = fs.readFileSync(path.join(ROOT, 'docs', 'CLI.md'), 'utf8');
  const bullet = readme.split('\n- ').find((b) => b.startsWith('`doctor --json` prints'));
  assert.ok(bullet, 'docs/CLI.md has the doctor --json bullet');
  return [...bullet.matchAll(/`([a-z_]+)`(?=\s+\()/g)].map((m) => m[1]);
}

/** ExtensionState in src/host/extension/state.ts: every state a report can carry. */
function reportStates() {
  const src = fs.readFileSync(path.join(ROOT, 'src', 'host', 'extension', 'state.ts'), 'utf8');
  const union = /export type ExtensionState =([^;]+);/.exec(src)?.[1];
  assert.ok(union, 'state.ts declares ExtensionState');
  return [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
}

test('doctor --json prints each state docs/CLI.md lists, and no state it does not list', async () => {
  const root = tmpdir();
  const theme = path.join(root, 'theme');
  fs.mkdirSync(theme);
  fs.writeFileSync(path.join(theme, 'extension.json'), JSON.stringify({ name: 'theme' }));
  fs.writeFileSync(path.join(theme, 'theme.json'), '{}');
  const bad = path.join(root, 'bad');
  fs.mkdirSync(bad);
  fs.writeFileSync(path.join(bad, 'extension.json'), 'not json');
  const go = path.join(root, 'say-hello-now');
  const settled = [
    makeExt(root, 'ready'),
    makeExt(root, 'auto', { noReady: true }),
    // Registers for 20 s without ready: still at it when the 3 s ready grace ends and when doctor prints.
    makeExt(root, 'slow', { trickle: { count: 400, everyMs: 50 } }),
    // Crashes 100 ms after each hello, before it could be auto-ready; after its fourth crash it waits 4 s.
    makeExt(root, 'crashy', { noReady: true, crashAfterMs: 100 }),
    bad,
    theme,
    // A second folder with the first one's manifest name.
    makeExt(root, 'twin-a', { name: 'twin' }),
    makeExt(root, 'twin-b', { name: 'twin' }),
    makeExt(root, 'off', {}, { enabled: false }),
    // Says hello when told: after the ready grace, while crashy waits out its fourth backoff, and then
    // registers for 2 s. Doctor waits for that hello and prints at once.
    makeExt(root, 'late', { helloWhenFile: go, trickle: { count: 40, everyMs: 50 } }),
  ];
  // Never says hello; a SIGHUP while doctor waits for it starts its stop.
  const mute = makeExt(tmpdir(), 'mute', { noHello: true });

  const [a, c] = await Promise.all([
    doctor(settled, (_child, home) => {
      const log = path.join(home, 'logs', 'ext-crashy.log');
      const text = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '');
      // Its fourth crash (four launches, four exits): the next start is 4 s away, and 3.5 s of backoff lie behind, past the grace.
      waitFor('crashy\'s fourth crash', () => (text().match(/exited with code 3/g) ?? []).length === 4 && (text().match(/ start crashy /g) ?? []).length === 4, 20_000)
        .then(() => fs.writeFileSync(go, ''));
    }),
    doctor([mute], (child, home) => {
      const log = path.join(home, 'logs', 'ext-mute.log');
      waitFor('mute started', () => fs.existsSync(log) && /started process/.test(fs.readFileSync(log, 'utf8')), 8000).then(() => child.kill('SIGHUP'));
    }),
  ]);
  assert.deepEqual(a.states, [
    ['ready', 'ready'], ['auto', 'auto_ready'], ['slow', 'ready_timed_out'], ['crashy', 'restarting'], ['bad', 'failed'], ['theme', 'stopped'],
    ['twin', 'ready'], ['twin', 'disabled'], ['off', 'disabled'], ['late', 'starting'],
  ], a.stderr);
  assert.equal(a.code, 1, 'a failed extension makes doctor exit 1');
  assert.deepEqual(c.states, [['mute', 'stopping']], c.stderr);

  const printed = new Set([...a.states, ...c.states].map(([, state]) => state));
  assert.deepEqual(new Set(readmeStates()), printed, 'docs/CLI.md lists exactly the states doctor printed');
  // The one state a report has that zot-host never shows: held is the editor's (trust, consent); the CLI has no gate.
  assert.deepEqual(new Set(reportStates()), new Set([...printed, 'held']));
});
