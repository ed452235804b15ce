// zot-host hook with guard answers that change nothing: a normaliser's
// modified_args equal to the input (in the input's key order or another), or
// an allow that carries a reason (for a call or a prompt). Each is no change:
// the agent's call or prompt goes on as it would without the guard (no "ask"
// that stops every call, no refusal in Copilot CLI's shape), through the real
// Python guard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { CLI, COMPAT, tmpdir } from '../helpers.mjs';

const GUARD = path.join(COMPAT, 'guard');

/**
 * The hook's answer (stdout, parsed) to `input` on stdin.
 * @param {string} event
 * @param {unknown} input
 * @returns {Promise<unknown>}
 */
function answer(event, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'hook', event, '--no-discover', '--home', tmpdir('zot-home-'), '--ext', GUARD], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ZOT_HOOK_TOKEN: '', ZOT_HOOK_WINDOWS: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`exit ${code}: ${stderr}`))));
    child.stdin.end(JSON.stringify(input));
  });
}

/** Args in an order no sort gives, with a nested object and an array. */
const ARGS = { path: 'src/a.ts', mode: 'write', content: 'x = "1"\n', options: { z: 1, a: [2, { y: 3, b: 4 }] } };

for (const tool of ['normalise', 'normalise-sorted', 'allow-with-reason']) {
  test(`PreToolUse: a guard's ${tool} answer is no change, in VS Code's and Claude Code's shape and in Copilot CLI's`, async () => {
    assert.deepEqual(await answer('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: tool, tool_input: ARGS, tool_use_id: 't1' }), {});
    assert.deepEqual(await answer('preToolUse', { timestamp: 1764662400000, cwd: process.cwd(), toolName: tool, toolArgs: JSON.stringify(ARGS) }), {});
  });
}

test('UserPromptSubmit: a guard that answers block false with a reason lets the prompt through, in both shapes', async () => {
  assert.deepEqual(await answer('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'this is noted, go on', cwd: process.cwd() }), {});
  assert.deepEqual(await answer('userPromptSubmitted', { timestamp: 1764662400000, cwd: process.cwd(), prompt: 'this is noted, go on' }), {});
});
