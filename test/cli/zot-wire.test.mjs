// zot's newer wire through zot-host: a tool composed through call_tool runs
// headless, `tool --json` prints the structured value, `command` carries out
// a tool_prompt (the tool first, then the prompt), as docs/ZOT.md 6 says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, makeZotExt, tmpdir } from '../helpers.mjs';

const ledger = () => {
  const root = tmpdir();
  return [
    makeZotExt(root, 'rates', {
      tools: [{ name: 'rate_lookup', description: 'Exchange rate.', schema: { type: 'object' } }],
      handlers: { rate_lookup: { kind: 'reply', result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412' }], structured_content: { pair: 'CHF/EUR', rate: 1.0412 } } } },
      commands: { commit: { kind: 'tool_prompt', prompt: 'and open a pull request', tool_name: 'rate_lookup', tool_args: { pair: 'CHF/EUR' } }, broken: { kind: 'tool_prompt', prompt: 'x', tool_args: [1] } },
    }),
    makeZotExt(root, 'ledger', {
      tools: [{ name: 'ledger_post', description: 'Post an amount.', schema: { type: 'object' } }],
      handlers: { ledger_post: { kind: 'call', name: 'rate_lookup', args: { pair: 'CHF/EUR' } } },
    }),
  ];
};

/** @param {string[]} args */
function zotHost(args, exts = ledger()) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--no-discover', ...exts.flatMap((e) => ['--ext', e])], { encoding: 'utf8', env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('zot-host tool: a tool composed through call_tool runs headless; --json prints the structured value beside the text', () => {
  const composed = zotHost(['tool', 'ledger_post', '{}']);
  assert.equal(composed.code, 0, composed.stderr);
  assert.equal(composed.stdout, 'ledger_post got: CHF/EUR 1.0412\n');
  const json = zotHost(['tool', 'rate_lookup', '{}', '--json']);
  assert.deepEqual(JSON.parse(json.stdout), { outcome: 'completed', extension: 'rates', is_error: false, content: [{ type: 'text', text: 'CHF/EUR 1.0412' }], message: '', structured_content: { pair: 'CHF/EUR', rate: 1.0412 } });
});

test('zot-host command: a tool_prompt runs its tool first and prints its result, then the prompt; one zot cannot carry out is an error in zot\'s words', () => {
  const r = zotHost(['command', 'commit']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'rate_lookup ran first:\nCHF/EUR 1.0412\n\nprompt for the model:\nand open a pull request\n');
  const json = JSON.parse(zotHost(['command', 'commit', '--json']).stdout);
  assert.deepEqual(json.tool_result, { outcome: 'completed', is_error: false, content: [{ type: 'text', text: 'CHF/EUR 1.0412' }], message: '' });
  const bad = zotHost(['command', 'broken']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr.trim(), '/broken: error: tool prompt requires text, tool ID, name and JSON object arguments');
});
