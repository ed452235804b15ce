// What every harness test sets up: a zot home holding a guard (Python,
// test/fixtures/compat/guard) and a tool extension (echo_upper), a project
// and a user folder of their own, the plugin `zot-host plugin` writes, and a
// way to read what the guard extension was sent.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, COMPAT, lib, ROOT, tmpdir } from '../helpers.mjs';

/** @typedef {{ type: string, event: string, tool_name?: string, text?: string, result?: unknown, content?: unknown, tool_id?: string, status?: string, executed?: boolean }} GuardFrame */

/**
 * A fresh scene, with the plugin written in `format` (and `more` options of zot-host plugin).
 * @param {string} prefix
 * @param {string} format
 * @param {string[]} [more]
 */
export function scene(prefix, format, more = []) {
  const root = tmpdir(prefix);
  const home = path.join(root, 'zot-home');
  const project = path.join(root, 'project');
  const user = path.join(root, 'user');
  for (const d of [project, user]) fs.mkdirSync(d);
  for (const n of ['guard', 'node-nosdk']) fs.cpSync(path.join(COMPAT, n), path.join(home, 'extensions', n), { recursive: true });
  const plugin = path.join(root, 'plugin');
  execFileSync(process.execPath, [CLI, 'plugin', plugin, '--home', home, '--format', format, ...more]);
  return { root, home, project, user, plugin };
}

/**
 * The hook command a plugin runs for PreToolUse, made the one for another event (the plugin installs only its guards).
 * @param {string} preToolUse
 * @param {string} event
 */
export const hookFor = (preToolUse, event) => preToolUse.replace(' hook PreToolUse ', ` hook ${event} `);

/**
 * What the guard extension was sent, from its log: events and intercepts.
 * @param {string} home
 * @returns {GuardFrame[]}
 */
export function guardSaw(home) {
  const log = fs.readFileSync(lib.extensionLogPath(home, 'guard'), 'utf8');
  return log.split('\n').filter((l) => /^(EVENT|INTERCEPT) /.test(l)).map((l) => JSON.parse(l.slice(l.indexOf(' ') + 1)));
}

/**
 * The tool_call intercepts the guard was asked for a tool.
 * @param {GuardFrame[]} saw
 * @param {string} tool
 */
export const interceptsOf = (saw, tool) => saw.filter((f) => f.type === 'event_intercept' && f.event === 'tool_call' && f.tool_name === tool);

/**
 * A tool_result event's result as text, whichever shape it has (`result`, `text`, or content blocks).
 * @param {GuardFrame} e
 */
export const resultOf = (e) => (typeof e.result === 'string' ? e.result : typeof e.text === 'string' ? e.text : JSON.stringify(e.result ?? e.content ?? ''));

/**
 * Runs a harness to its end.
 * @param {string} file
 * @param {string[]} args
 * @param {{ cwd: string, env: Record<string, string> }} options
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
export function runHarness(file, args, { cwd, env }) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * What the guard must have been sent in a session of the scripted model (two shell calls, one of them
 * refused, then the zot tool): each shell call asked of it by the hook, under the harness's name for the
 * shell (`preShell`); the zot tool asked once, on the MCP path, never under the harness's name for it
 * (`zotName`); PostToolUse as the tool_result event of the allowed shell call (named `postShell`), and the
 * zot tool's one tool_result, from the MCP path, with `zotResult`.
 * @param {string} home
 * @param {{ preShell: string, postShell: string, zotName: string, zotResult: string }} names
 */
export function assertGuardedOnce(home, { preShell, postShell, zotName, zotResult }) {
  const saw = guardSaw(home);
  assert.equal(interceptsOf(saw, preShell).length, 2, 'each shell call was put to the guard by the hook');
  assert.equal(interceptsOf(saw, 'echo_upper').length, 1, JSON.stringify(saw.filter((f) => f.event === 'tool_call')));
  assert.equal(interceptsOf(saw, zotName).length, 0, 'the hook let the harness\'s name for the zot tool through');
  const results = saw.filter((f) => f.type === 'event' && f.event === 'tool_result');
  // The denied call's ending is a tool_result too, as zot reports a guard's block: never run.
  // (Copilot CLI names its shell tool one way to the hook before a call and another after it.)
  const isShell = (/** @type {GuardFrame} */ f) => f.tool_name === postShell || f.tool_name === preShell;
  const shell = results.filter(isShell);
  assert.deepEqual(shell.map((f) => `${f.status}/${f.executed}`).sort(), ['blocked/false', 'completed/true'], JSON.stringify(results));
  const ran = shell.find((f) => f.status === 'completed');
  assert.ok(ran);
  assert.match(resultOf(ran), /allowed-call/);
  assert.deepEqual(results.filter((f) => !isShell(f)).map((f) => [f.tool_name, resultOf(f)]), [['echo_upper', zotResult]]);
}

/** Loaded into the plugin's MCP server (NODE_OPTIONS=--require), it logs each tools/call the server answers to $ZOT_BENCH_PROBE. */
export const MCP_PROBE = path.join(ROOT, 'bench', 'fixtures', 'mcp-probe.cjs');

/**
 * What the probe logged: each tools/call's tool `name` (for the guard tool, the `hook` and tool it asked about), when it
 * reached the server and when it was answered.
 * @param {string} file
 * @returns {{ name: string, hook?: string, received: number, answered: number }[]}
 */
export const probeLog = (file) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/**
 * A record of every Node process the harness starts (its MCP servers, its hook commands): NODE_OPTIONS
 * requires a file that appends the process's first two arguments (zot-host's verb and what follows) to a log.
 * @param {string} root
 */
export function nodeStarts(root) {
  const log = path.join(root, 'node-starts.log');
  const marker = path.join(root, 'node-start.cjs');
  fs.writeFileSync(marker, `require('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2, 4)) + '\\n');\n`);
  return {
    env: { NODE_OPTIONS: `--require ${marker}` },
    /** The zot-host verbs started, with the word after each. @returns {string[][]} */
    started: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []),
  };
}
