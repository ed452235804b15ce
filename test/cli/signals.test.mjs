// A signal to zot-host stops its extensions, and what they started outside
// their process group, before it exits: nothing is left reparented to init.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, CLI, makeExt, tmpdir, waitFor } from '../helpers.mjs';

/**
 * @param {string} home
 * @param {string} name
 */
function pidsFromLog(home, name) {
  let text;
  try {
    text = fs.readFileSync(path.join(home, 'logs', `ext-${name}.log`), 'utf8');
  } catch {
    return undefined;
  }
  const main = text.match(/started process (\d+)/);
  const escapee = text.match(/ESCAPEE (\d+)/);
  return main && escapee ? [Number(main[1]), Number(escapee[1])] : undefined;
}

/** @type {[string, NodeJS.Signals, string[], Record<string, unknown>][]} */
const cases = [
  ['tool', 'SIGTERM', ['tool', 'hang'], {}],
  ['tool', 'SIGHUP', ['tool', 'hang'], {}],
  ['command', 'SIGTERM', ['command', 'wait'], {}],
  ['doctor', 'SIGHUP', ['doctor'], { helloDelayMs: 60000 }],
  ['mcp', 'SIGHUP', ['mcp'], {}],
  ['mcp --http', 'SIGHUP', ['mcp', '--http'], {}],
  // Ctrl-C: the call is cancelled, then the CLI stops everything as it exits.
  ['tool', 'SIGINT', ['tool', 'hang'], {}],
  ['command', 'SIGINT', ['command', 'wait'], {}],
  ['mcp', 'SIGINT', ['mcp'], {}],
];

for (const [verb, signal, args, extra] of cases) {
  test(`${signal} to zot-host ${verb} ends the extension and its escaped grandchild before the CLI exits`, async () => {
    const home = tmpdir('zot-home-');
    const dir = makeExt(tmpdir(), 'sig', { escapees: 1, tools: [{ name: 'hang', behaviour: 'hang' }], commands: [{ name: 'wait', hang: true }], ...extra });
    const child = spawn(process.execPath, [CLI, ...args, '--ext', dir, '--no-discover', '--home', home], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    /** @type {Promise<{ code: number | null, sig: NodeJS.Signals | null }>} */
    const closed = new Promise((r) => child.on('close', (code, sig) => r({ code, sig })));
    const pids = await waitFor('the extension and its grandchild', () => pidsFromLog(home, 'sig'), 10000);
    await new Promise((r) => setTimeout(r, 300));
    for (const p of pids) assert.ok(alive(p), `${p} runs`);
    const sent = Date.now();
    child.kill(signal);
    const end = await closed;
    assert.ok(Date.now() - sent < 5000, `it exits promptly (${Date.now() - sent} ms)`);
    assert.equal(end.sig, null, `it exits by itself, not by the signal: ${stderr}`);
    for (const p of pids) assert.ok(!alive(p), `process ${p} is gone once zot-host ${verb} exited (${JSON.stringify(end)})`);
  });
}
