// What `zot-host doctor` says about terva extensions: a refusal for
// min_protocol, a launcher's bootstrap progress, what its notices left (model
// context, cards, status, withdrawn tools), and what this host has no place for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTervaExt, runCli, tmpdir } from '../helpers.mjs';

test('doctor shows a min_protocol refusal as the failure it is, a bootstrap\'s last line, what the notices left, and what has no place here', async () => {
  const root = tmpdir();
  const dirs = [
    makeTervaExt(root, 'strict', { minProtocol: 7 }),
    makeTervaExt(root, 'builder', { bootstrap: { count: 3, everyMs: 200, message: 'npm ci' }, burst: ['register_tool external-mutation', 'register_tool read_only', 'register_context', 'register_connector', 'status_segment', 'context_card minimal', 'set_withdrawn_tools some'] }),
  ];
  const args = ['--no-discover', ...dirs.flatMap((d) => ['--ext', d])];
  const text = await runCli(['doctor', ...args]);
  assert.equal(text.code, 1, 'a failed extension fails doctor');
  const refusal = /error: +extension strict requires protocol version 7 but this host speaks 6; upgrade zot-extensions \(this is \S+\)\n/;
  assert.match(text.stdout, /^strict 0\.4\.2: failed\n/m);
  assert.match(text.stdout, refusal);
  assert.match(text.stdout, /^builder 0\.4\.2: ready\n[\s\S]*^ {2}bootstrap: npm ci$/m);
  assert.match(text.stdout, /^ {2}tool invoice_send \(withdrawn by its extension\) - E-mail an invoice to a customer\.$/m);
  assert.match(text.stdout, /^ {2}tool ledger_balance - Current balance of one ledger account\.$/m);
  assert.match(text.stdout, /^ {2}model context: 81 bytes$/m);
  assert.match(text.stdout, /^ {2}context cards: import$/m);
  assert.match(text.stdout, /^ {2}status: ledger 9\/12$/m);
  assert.match(text.stdout, /^ {2}note: offered a chat connector \(register_connector\); this host has no chat connectors, so it never opens a chat session$/m);
  const problems = text.stdout.split('\n').filter((l) => l.includes('problem:'));
  assert.deepEqual(problems.map((l) => l.replace(/^ {2}problem: /, '')), [/error: +(.*)/.exec(text.stdout)?.[1]], 'the refusal is the one problem; bootstrap lines and notices are none');

  const json = await runCli(['doctor', '--json', ...args]);
  const { extensions } = /** @type {{ extensions: import('../../out/types/host/index.js').ExtensionReport[] }} */ (JSON.parse(json.stdout));
  const reports = Object.fromEntries(extensions.map((r) => /** @type {const} */ ([r.name, r])));
  assert.equal(reports.strict.kind, 'failed');
  assert.ok(reports.strict.error, 'strict has an error');
  assert.match(reports.strict.error, /^extension strict requires protocol version 7 but this host speaks 6; /);
  assert.deepEqual(reports.strict.diagnostics, [reports.strict.error]);
  assert.equal(reports.builder.state, 'ready');
  assert.equal(reports.builder.bootstrap, 'npm ci');
  assert.deepEqual(reports.builder.diagnostics, []);
  assert.equal(reports.builder.notes.length, 1);
  assert.equal(reports.builder.model_context_bytes, 81);
  assert.deepEqual(reports.builder.context_cards, ['import']);
  assert.deepEqual(reports.builder.status, [{ id: 'sync', text: 'ledger 9/12' }]);
  assert.deepEqual(reports.builder.tools.filter((t) => t.withdrawn).map((t) => t.name), ['invoice_send']);
});
