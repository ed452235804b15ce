// What Debug Extension relies on in the host: an environment overlay for one
// extension's next launches, under which Node's inspector and debugpy (via
// media/debug/python/sitecustomize.py) say on stderr where they listen, while
// the extension keeps answering; cleared, the next launch runs plainly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { firstText, lib, ROOT, startHost, tmpdir, waitFor } from '../helpers.mjs';

const SITE = path.join(ROOT, 'media', 'debug', 'python');

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function connects(port) {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}

/**
 * @param {import('../../out/types/host/index.js').ScaffoldLanguage} language
 * @param {string} name
 */
function scaffolded(language, name) {
  return lib.scaffold({ dir: path.join(tmpdir('zot-debug-'), name), language, name }).dir;
}

/**
 * @param {import('node:test').TestContext} t
 * @param {string} dir
 * @param {string} name
 * @param {NodeJS.ProcessEnv} env
 * @param {RegExp} listening
 */
async function debugRoundTrip(t, dir, name, env, listening) {
  const host = await startHost(t, [dir], { noStart: true });
  host.setLaunchEnv(name, env);
  await host.start();
  const line = await waitFor('where the debugger listens', () => host.stderrOf(name).find((l) => listening.test(l)), 10_000);
  const match = listening.exec(line);
  assert.ok(match, `where the debugger listens, in: ${line}`);
  const port = Number(match[1]);
  assert.ok(await connects(port), `something listens on ${port}`);
  // Under the debugger the extension may register after the ready grace on a busy machine: its tool is awaited, not assumed.
  const tool = `${name.replace(/-/g, '_')}_reverse`;
  await waitFor(`${tool} registered`, () => host.findTool(tool), 15_000);
  const o = await host.runToolCall(tool, { text: 'abc' });
  assert.equal(firstText(o), 'cba', 'the extension works as usual under the debugger');
  host.setLaunchEnv(name, undefined);
  const before = host.stderrOf(name).length;
  await host.restartExtension(name);
  assert.equal(lib.stateOf(host.get(name)), 'ready');
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(!host.stderrOf(name).slice(before).some((l) => listening.test(l)), 'no debugger once the overlay is cleared');
}

test('Node under --inspect=127.0.0.1:0 says its port and still answers', async (t) => {
  const dir = scaffolded('node', 'dbg-node');
  await debugRoundTrip(t, dir, 'dbg-node', { NODE_OPTIONS: '--inspect=127.0.0.1:0' }, /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//);
});

test('Python with the debugpy sitecustomize says its port and still answers', async (t) => {
  const python = ['python3', '/usr/bin/python3'].find((p) => {
    try {
      execFileSync(p, ['-c', 'import debugpy'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!python) return t.skip('debugpy is not installed for python3 here (Debian: python3-debugpy; else pip install debugpy)');
  const dir = scaffolded('python', 'dbg-py');
  const manifest = path.join(dir, 'extension.json');
  fs.writeFileSync(manifest, JSON.stringify({ .../** @type {Record<string, unknown>} */ (JSON.parse(fs.readFileSync(manifest, 'utf8'))), exec: python }));
  await debugRoundTrip(t, dir, 'dbg-py', { PYTHONPATH: SITE }, /zot-debugpy listening on 127\.0\.0\.1:(\d+)/);
});
