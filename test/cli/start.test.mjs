// zot-host starts without the MCP SDK: every verb but `mcp` runs from
// dist/cli.js alone (the SDK and its validators live in dist/mcp.js, read only
// when a verb serves MCP), so a hook run on each tool call does not parse them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { builtinsLoadedBy, CLI, COMPAT, tmpdir } from '../helpers.mjs';

/** dist/cli.js copied alone into a folder: no dist/mcp.js beside it. */
function cliAlone() {
  const dir = tmpdir('zot-cli-alone-');
  fs.copyFileSync(CLI, path.join(dir, 'cli.js'));
  return path.join(dir, 'cli.js');
}

/** @type {(cli: string, args: string[], input?: string) => import('node:child_process').SpawnSyncReturns<string>} */
const run = (cli, args, input) => spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8', env: { ...process.env, ZOT_HOOK_TOKEN: '', ZOT_HOOK_WINDOWS: '' } });

test('the CLI bundle has no MCP SDK in it', () => {
  const text = fs.readFileSync(CLI, 'utf8');
  assert.doesNotMatch(text, /StreamableHTTPServerTransport|modelcontextprotocol/, 'the MCP SDK is in dist/mcp.js only');
});

test('--help, doctor and hook run from dist/cli.js alone; mcp reads dist/mcp.js beside it', () => {
  const cli = cliAlone();
  const help = run(cli, ['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^zot-host \d+\.\d+\.\d+: run zot extensions without an editor\n\nusage:/);
  const home = tmpdir('zot-home-');
  const doctor = run(cli, ['doctor', '--no-discover', '--home', home, '--ext', path.join(COMPAT, 'guard')]);
  assert.equal(doctor.status, 0, doctor.stderr);
  assert.match(doctor.stdout, /guard/);
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf build' } });
  const hook = run(cli, ['hook', 'PreToolUse', '--no-discover', '--home', home, '--ext', path.join(COMPAT, 'guard')], input);
  assert.equal(hook.status, 0, hook.stderr);
  assert.equal(/** @type {{ hookSpecificOutput: { permissionDecision: string } }} */ (JSON.parse(hook.stdout)).hookSpecificOutput.permissionDecision, 'deny');
  // Without its bundle beside it, mcp cannot serve: it fails, and the working copy (with dist/mcp.js) serves.
  const mcp = run(cli, ['mcp', '--no-discover', '--home', home], '');
  assert.notEqual(mcp.status, 0);
  assert.match(mcp.stderr, /mcp\.js/);
  const served = run(CLI, ['mcp', '--no-discover', '--home', home], `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
  assert.equal(served.status, 0, served.stderr);
  assert.deepEqual(JSON.parse(served.stdout.split('\n')[0]), { jsonrpc: '2.0', id: 1, result: {} });
});

/**
 * The Node built-in modules a zot-host run loaded, read at its exit.
 * @param {string[]} args
 * @param {string} [input]
 */
function builtinsLoaded(args, input) {
  const watched = builtinsLoadedBy();
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', env: { ...process.env, ZOT_HOOK_TOKEN: '', ZOT_HOOK_WINDOWS: '', ...watched.env } });
  assert.equal(r.status, args[0] === 'nope' ? 2 : 0, r.stderr);
  return watched.loaded();
}

test('--help and a usage error load none of the host: no processes, HTTP or hashes; a verb loads what it uses', () => {
  // (Not `net`: Node loads it itself for a standard stream that is a pipe.)
  const heavy = ['child_process', 'http', 'crypto'];
  for (const args of [['--help'], ['nope']]) {
    const loaded = builtinsLoaded(args);
    assert.deepEqual(heavy.filter((m) => loaded.has(m)), [], `zot-host ${args.join(' ')}`);
  }
  const home = tmpdir('zot-home-');
  const doctor = builtinsLoaded(['doctor', '--no-discover', '--home', home, '--ext', path.join(COMPAT, 'guard')]);
  assert.ok(doctor.has('child_process'), 'doctor starts its extensions');
});
