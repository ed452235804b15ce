// Defects a person sees from the CLI, over real processes: an extension that
// never says hello, a large result read through a pipe, a reader that goes away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, makeExt, tmpdir } from '../helpers.mjs';

/** @typedef {import('../../out/types/host/index.js').ExtensionReport} ExtensionReport */

test('doctor reports an extension that never says hello as failed once the 10 s hello bound passes, and waits no longer', async () => {
  const home = tmpdir('zot-home-');
  const dir = makeExt(tmpdir(), 'mute', { noHello: true });
  const ok = makeExt(tmpdir(), 'fine', { commands: [{ name: 'x' }] });
  const started = Date.now();
  /** @type {{ code: number | null, stdout: string }} */
  const r = await new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'doctor', '--json', '--no-discover', '--ext', dir, '--ext', ok], { env: { ...process.env, ZOT_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout }));
  });
  const elapsed = Date.now() - started;
  const { extensions } = /** @type {{ extensions: ExtensionReport[] }} */ (JSON.parse(r.stdout));
  const mute = extensions.find((e) => e.name === 'mute');
  assert.ok(mute, 'mute is reported');
  assert.equal(mute.state, 'failed');
  assert.ok(mute.error, 'mute has an error');
  assert.match(mute.error, /did not say hello within 10 s/);
  assert.equal(extensions.find((e) => e.name === 'fine')?.state, 'ready');
  assert.equal(r.code, 1, 'a failed extension makes doctor exit 1');
  assert.ok(elapsed >= 9_500, `waited for the hello bound (${elapsed} ms)`);
  assert.ok(elapsed < 16_000, `and no longer (${elapsed} ms)`);
});

test('a 3 MiB tool --json result piped into a slow reader arrives whole', async () => {
  const size = 3 * 1024 * 1024;
  const dir = makeExt(tmpdir(), 'big', { tools: [{ name: 'huge', behaviour: 'big', size }] });
  // A shell pipeline, as a person types it: the CLI's stdout is a pipe into another process.
  /** @type {{ code: number | null, stdout: string, stderr: string }} */
  const r = await new Promise((resolve) => {
    const reader = `${JSON.stringify(process.execPath)} -e "let n=0;process.stdin.on('data',d=>{n+=d.length;process.stdin.pause();setTimeout(()=>process.stdin.resume(),2)});process.stdin.on('end',()=>console.log(n))"`;
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} tool huge --json --no-discover --ext ${JSON.stringify(dir)} | ${reader}`;
    const child = spawn('/bin/sh', ['-c', cmd], { env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  assert.equal(r.code, 0, r.stderr);
  const expected = Buffer.byteLength(JSON.stringify({ outcome: 'completed', extension: 'big', is_error: false, content: [{ type: 'text', text: 'x'.repeat(size) }], message: '' })) + 1;
  assert.equal(Number(r.stdout.trim()), expected);
});

/**
 * Runs zot-host with its stdout a pipe whose reader has gone before it writes (as `| head -0` leaves it).
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stderr: string }>}
 */
function withReaderGone(args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ZOT_HOME: tmpdir('zot-home-'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

test('a reader that goes away (| head) ends no verb early and prints no stack: the verb exits with its own status', async () => {
  const help = await withReaderGone(['--help']);
  assert.deepEqual(help, { code: 0, signal: null, stderr: '' });
  const target = path.join(tmpdir(), 'fresh');
  const init = await withReaderGone(['init', target, '--language', 'node']);
  assert.deepEqual(init, { code: 0, signal: null, stderr: '' });
  assert.deepEqual(fs.readdirSync(target).sort(), ['README.md', 'extension.json', 'index.mjs'], 'every file written');
  const dir = makeExt(tmpdir(), 'big', { tools: [{ name: 'huge', behaviour: 'big', size: 1024 * 1024 }] });
  const tool = await withReaderGone(['tool', 'huge', '--json', '--no-discover', '--ext', dir]);
  assert.deepEqual(tool, { code: 0, signal: null, stderr: '' });
  // What it writes to stderr still arrives: a tool that is not there is exit 1 and said so.
  const missing = await withReaderGone(['tool', 'nope', '--no-discover', '--ext', dir]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nope/);
  assert.doesNotMatch(missing.stderr, /EPIPE|at .*cli\.js/);
});
