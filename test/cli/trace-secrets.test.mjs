// zot-host --trace with secrets a pattern matcher would take for syntax
// (regular-expression characters, a quote, a backslash): masked in the frames
// the CLI writes to stderr, as written and JSON-escaped; what the extension
// shows on purpose (its note, the result) is not altered. The host's other paths are in
// test/host/redaction.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib, makeExt, runCli, tmpdir } from '../helpers.mjs';

const SECRETS = { DB_PASSWORD: 'pa$$word!', DOTS_TOKEN: 'a.b+c(d)', WIN_API_KEY: 'C:\\keys\\id_rsa', QUOTE_SECRET: 'say "open" now' };

test('--trace masks secrets holding $, regex syntax, a backslash or a quote, as written and JSON-escaped', async () => {
  const values = Object.values(SECRETS);
  const raw = [`${JSON.stringify({ type: 'notify', level: 'info', message: values.join(' ') })}\n`, `not json ${values.join(' ')}\n`];
  const ext = makeExt(tmpdir(), 'traced', { tools: [{ name: 'echo' }], raw });
  const args = Object.fromEntries(Object.entries(SECRETS).map(([k, v]) => [k.toLowerCase(), v]));
  const r = await runCli(['tool', 'echo', JSON.stringify(args), '--no-discover', '--ext', ext, '--json', '--trace'], { env: SECRETS });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(/** @type {{ content: { text: string }[] }} */ (JSON.parse(r.stdout)).content[0].text), args, 'the result itself is not altered');
  const lines = r.stderr.split('\n').filter((l) => /^\[traced\] [←→] /.test(l));
  for (const v of values) {
    const escaped = JSON.stringify(v).slice(1, -1);
    assert.ok(!lines.some((l) => l.includes(v) || l.includes(escaped)), `${v} is written:\n${lines.find((l) => l.includes(v) || l.includes(escaped))}`);
  }
  const call = lines.find((l) => l.includes('→ tool_call'));
  assert.ok(call, r.stderr);
  assert.deepEqual(/** @type {{ args: unknown }} */ (JSON.parse(call.slice(call.indexOf('{')))).args, Object.fromEntries(Object.keys(args).map((k) => [k, lib.REDACTED])));
  const note = lines.find((l) => l.includes('← notify'));
  assert.ok(note, r.stderr);
  assert.equal(/** @type {{ message: string }} */ (JSON.parse(note.slice(note.indexOf('{')))).message, values.map(() => lib.REDACTED).join(' '));
  assert.ok(lines.some((l) => l.endsWith(`(invalid frame) ${Buffer.byteLength(`not json ${values.join(' ')}`)} B not json ${values.map(() => lib.REDACTED).join(' ')}`)), lines.join('\n'));
});
