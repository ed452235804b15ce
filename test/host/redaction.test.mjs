// Secrets whose values are hostile to a pattern matcher (regular-expression
// characters, quotes, backslashes, a line break) are masked wherever the host
// writes an extension's traffic: the verbose protocol trace (VS Code's
// zot.trace setting, zot-host --trace), as written and in the JSON-escaped
// form an encoder gives them (once, or twice for JSON sent as text), and an extension's problems and log. Held by
// what is written, not by how the masking is done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lib, makeExt, startHost, tmpdir, waitFor } from '../helpers.mjs';

/** Values of secret-named variables, each one a pattern would take for syntax. */
const HOSTILE = {
  DB_PASSWORD: 'pa$$word!',
  DOTS_TOKEN: 'a.b+c(d)',
  CLASS_SECRET: '^[tok]{2}|x?*',
  WIN_API_KEY: 'C:\\keys\\id_rsa',
  QUOTE_PASSWORD: 'say "open" now',
  MIXED_TOKEN: 'x/y\\"z$1&$&',
  LINES_SECRET: 'first\nsecond\tthird',
};
/** A bearer token the front end names (an MCP token), with a backslash and a quote. */
const KEPT = 'bearer\\"$(rm -rf)';

/** JSON's escaping of a string's inside. */
const escaped = (/** @type {string} */ v) => JSON.stringify(v).slice(1, -1);
/** Each value as written, as JSON writes it inside a string, and inside JSON that is itself a string (a tool's result of JSON text). */
const forms = (/** @type {string} */ v) => [v, escaped(v), escaped(escaped(v))];

test('the verbose trace masks secrets holding regex characters, quotes, backslashes and line breaks: as written, JSON-escaped, in a line that is not JSON', async (t) => {
  const values = Object.values(HOSTILE);
  const raw = [
    ...values.map((v) => `${JSON.stringify({ type: 'notify', level: 'info', message: v })}\n`),
    `${JSON.stringify({ type: 'notify', level: 'info', message: KEPT })}\n`,
    // Not JSON: the trace shows the line as it came, so each value is there as written (a line break ends the line).
    `oops ${values.filter((v) => !v.includes('\n')).join(' ~ ')} ~ ${KEPT} end\n`,
  ];
  const ext = makeExt(tmpdir(), 'hostile', { tools: [{ name: 'echo' }], raw });
  const host = await startHost(t, [ext], { env: { ...process.env, ...HOSTILE }, noStart: true });
  host.keepSecret(KEPT);
  /** @type {string[]} */
  const lines = [];
  host.setTrace({ level: 'verbose', line: (_name, text) => lines.push(text) });
  await host.start();
  const args = Object.fromEntries(Object.entries(HOSTILE).map(([k, v]) => [k.toLowerCase(), v]));
  const outcome = await host.runToolCall('echo', { ...args, kept: KEPT });
  assert.equal(outcome.outcome, 'completed');

  for (const v of [...values, KEPT]) {
    for (const form of forms(v)) assert.ok(!lines.some((l) => l.includes(form)), `${JSON.stringify(form)} is written in:\n${lines.find((l) => l.includes(form))}`);
  }
  // Each note's message is masked whole: nothing of the value is left around the mask.
  const notes = lines.filter((l) => l.startsWith('← notify'));
  assert.equal(notes.length, values.length + 1, lines.join('\n'));
  for (const l of notes) assert.equal(/** @type {{ message: string }} */ (JSON.parse(l.slice(l.indexOf('{')))).message, lib.REDACTED, l);
  // The call's args, JSON-escaped once by the host: each one masked whole.
  const call = lines.find((l) => l.startsWith('→ tool_call'));
  assert.ok(call, lines.join('\n'));
  assert.deepEqual(/** @type {{ args: Record<string, string> }} */ (JSON.parse(call.slice(call.indexOf('{')))).args, Object.fromEntries(Object.keys({ ...args, kept: 1 }).map((k) => [k, lib.REDACTED])));
  // The echo's result is the args as JSON text, so each value is escaped twice there: masked whole all the same.
  const result = lines.find((l) => l.startsWith('← tool_result'));
  assert.ok(result, lines.join('\n'));
  const text = /** @type {{ content: { text: string }[] }} */ (JSON.parse(result.slice(result.indexOf('{')))).content[0].text;
  assert.deepEqual(JSON.parse(text), Object.fromEntries(Object.keys({ ...args, kept: 1 }).map((k) => [k, lib.REDACTED])), result);
  const invalid = lines.find((l) => l.startsWith('← (invalid frame)'));
  assert.ok(invalid, lines.join('\n'));
  assert.match(invalid, new RegExp(`oops ${Array(values.length).fill(lib.REDACTED).join(' ~ ')} end$`));
});

test('an extension\'s problems and log mask the same secrets in a line that is not JSON', async (t) => {
  const values = Object.values(HOSTILE).filter((v) => !v.includes('\n'));
  const ext = makeExt(tmpdir(), 'hostile-log', { tools: [{ name: 'echo' }], raw: [`not json: ${values.join(' | ')}\n`, `{"type":"notify","message":${JSON.stringify(values.join(' | '))} \n`] });
  const host = await startHost(t, [ext], { env: { ...process.env, ...HOSTILE } });
  const view = () => {
    const v = host.get('hostile-log');
    assert.ok(v, 'the extension is known');
    return v;
  };
  const problems = await waitFor('two problems', () => {
    const p = view().problems.filter((x) => /not JSON/.test(x.message));
    return p.length === 2 && p;
  });
  const masked = values.map(() => lib.REDACTED).join(' | ');
  assert.ok(problems[0].message.endsWith(`not json: ${masked}`), problems[0].message);
  assert.ok(problems[1].message.includes(JSON.stringify(masked).slice(1, -1)) || problems[1].message.includes(masked), problems[1].message);
  await waitFor('the log file', () => readFileSync(view().logPath, 'utf8').includes('not JSON'));
  const log = readFileSync(view().logPath, 'utf8');
  for (const v of values) {
    for (const form of forms(v)) {
      assert.ok(!problems.some((p) => p.message.includes(form)), `${JSON.stringify(form)} in a problem`);
      assert.ok(!log.includes(form), `${JSON.stringify(form)} in the log:\n${log}`);
    }
  }
});
