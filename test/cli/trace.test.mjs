// --trace: every frame on stderr, one a line, arrows by direction; stdout
// untouched; long frames cut at the documented size; secrets never written.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { lib, makeExt, runCli, startHost, tmpdir, waitFor } from '../helpers.mjs';

/** @typedef {{ content: { type: string, text: string }[] }} ToolJson What `tool --json` prints, as these tests read it. */

/** @type {(args: string[], env?: Record<string, string>) => ReturnType<typeof runCli>} */
const run = (args, env) => runCli(args, { env });

/** @param {string} stderr */
const traced = (stderr) => stderr.split('\n').filter((l) => l.startsWith('[traced] '));

test('tool --trace: the tool_call going out and the tool_result coming back, each frame on one line', async () => {
  const ext = makeExt(tmpdir(), 'traced', { tools: [{ name: 'echo' }] });
  const r = await run(['tool', 'echo', '{"word":"ping"}', '--no-discover', '--ext', ext, '--json', '--trace']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(/** @type {ToolJson} */ (JSON.parse(r.stdout)).content[0].text, '{"word":"ping"}', 'stdout holds only the result');
  const lines = traced(r.stderr);
  const call = lines.find((l) => / → tool_call #/.test(l));
  assert.ok(call, `a tool_call line in:\n${r.stderr}`);
  const id = /#(\S+)/.exec(call)?.[1];
  /** @type {unknown} */
  const callFrame = JSON.parse(call.slice(call.indexOf('{')));
  assert.deepEqual(callFrame, { type: 'tool_call', id, name: 'echo', args: { word: 'ping' } });
  const size = Number(/ (\d+) B /.exec(call)?.[1]);
  assert.equal(size, Buffer.byteLength(JSON.stringify(callFrame)), 'the size is the frame line in bytes');
  const result = lines.find((l) => l.includes(` ← tool_result #${id} `));
  assert.ok(result, 'the tool_result with the same id');
  assert.equal(/** @type {ToolJson} */ (JSON.parse(result.slice(result.indexOf('{')))).content[0].text, '{"word":"ping"}');
  // The whole conversation, in order: handshake first, shutdown last.
  const kinds = lines.map((l) => /\[traced\] (.) (\w+)/.exec(l)?.slice(1).join(' '));
  assert.deepEqual(kinds.slice(0, 2), ['← hello', '→ hello_ack']);
  assert.ok(kinds.indexOf('→ tool_call') < kinds.indexOf('← tool_result'));
  assert.ok(kinds.includes('→ shutdown'));
  const plain = await run(['tool', 'echo', '{}', '--no-discover', '--ext', ext]);
  assert.equal(traced(plain.stderr).length, 0, 'no trace without --trace');
});

test('--trace=messages: direction, type, id and size, never the frame', async () => {
  const ext = makeExt(tmpdir(), 'traced', { tools: [{ name: 'echo' }] });
  const r = await run(['tool', 'echo', '{"word":"private"}', '--no-discover', '--ext', ext, '--trace=messages']);
  assert.equal(r.code, 0, r.stderr);
  const lines = traced(r.stderr);
  assert.ok(lines.some((l) => /^\[traced\] → tool_call #\S+ \d+ B$/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^\[traced\] ← tool_result #\S+ \d+ B$/.test(l)));
  assert.ok(!lines.some((l) => l.includes('private')));
});

test('--trace: a long frame is cut at the documented size; secret values from the environment are redacted', async () => {
  const ext = makeExt(tmpdir(), 'traced', { tools: [{ name: 'echo' }] });
  const secret = 'sk-live-0123456789abcdef';
  const long = 'x'.repeat(lib.TRACE_VERBOSE_MAX_CHARS * 2);
  const r = await run(['tool', 'echo', JSON.stringify({ key: secret, long }), '--no-discover', '--ext', ext, '--json', '--trace'], { MY_API_TOKEN: secret });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(/** @type {ToolJson} */ (JSON.parse(r.stdout)).content[0].text.includes(secret), 'the result itself is not altered');
  assert.ok(!r.stderr.includes(secret), 'the secret never reaches the trace');
  const call = traced(r.stderr).find((l) => l.includes('→ tool_call'));
  assert.ok(call, 'a tool_call line');
  assert.ok(call.includes(`"key":"${lib.REDACTED}"`), call.slice(0, 200));
  assert.match(call, /… \(\d+ more characters\)$/);
  const shown = call.slice(call.indexOf('{'), call.lastIndexOf('…'));
  assert.equal(shown.length, lib.TRACE_VERBOSE_MAX_CHARS);
});

test('--trace: which environment variables count as secret, by name, and how long a value must be', async () => {
  const ext = makeExt(tmpdir(), 'traced', { tools: [{ name: 'echo' }] });
  const secret = { GH_TOKEN: 'value-of-token', APP_SECRET: 'value-of-secret', DB_PASSWORD: 'value-of-password', DB_PASSWD: 'value-of-passwd', MY_API_KEY: 'value-of-api-key', MY_APIKEY: 'value-of-apikey', SSH_PRIVATE: 'value-of-private', BASIC_AUTH: 'value-of-auth', AWS_CREDENTIALS: 'value-of-credential' };
  const plain = { SHORT_TOKEN: 'short12', MY_KEYBOARD: 'value-of-keyboard', EDITOR_NAME: 'value-of-editor' };
  // Argument names that say nothing: a secret-looking argument name is masked whatever its value (trace-masks.test.mjs).
  const args = Object.fromEntries(Object.entries({ ...secret, ...plain }).map(([, v], i) => [`arg${i}`, v]));
  const r = await run(['tool', 'echo', JSON.stringify(args), '--no-discover', '--ext', ext, '--trace'], { ...secret, ...plain });
  assert.equal(r.code, 0, r.stderr);
  const call = traced(r.stderr).find((l) => l.includes('→ tool_call'));
  assert.ok(call, 'a tool_call line');
  for (const [name, value] of Object.entries(secret)) assert.ok(!call.includes(value), `${name} is redacted: ${call}`);
  assert.equal(call.split(lib.REDACTED).length - 1, Object.keys(secret).length);
  // Under 8 characters, or a name that does not say secret: shown as it is.
  for (const [name, value] of Object.entries(plain)) assert.ok(call.includes(value), `${name} is shown`);
  assert.equal(lib.TRACE_VERBOSE_MAX_CHARS, 2000);
});

test('setTrace applies to connections already open, and off stops it at once', async (t) => {
  const ext = makeExt(tmpdir(), 'live', { tools: [{ name: 'echo' }] });
  const host = await startHost(t, [ext]);
  /** @type {string[]} */
  const lines = [];
  host.setTrace({ level: 'messages', line: (name, text) => lines.push(`${name} ${text}`) });
  await host.runToolCall('echo', { a: 1 });
  await waitFor('the traced reply', () => lines.some((l) => l.startsWith('live ← tool_result')));
  assert.ok(lines.some((l) => /^live → tool_call #\S+ \d+ B$/.test(l)), lines.join('\n'));
  host.keepSecret('a-bearer-token-value');
  /** @type {string[]} */
  const verbose = [];
  host.setTrace({ level: 'verbose', line: (_n, text) => verbose.push(text) });
  await host.runToolCall('echo', { t: 'a-bearer-token-value' });
  assert.ok(verbose.length >= 2 && !verbose.some((l) => l.includes('a-bearer-token-value')), verbose.join('\n'));
  host.setTrace(undefined);
  const before = lines.length + verbose.length;
  await host.runToolCall('echo', { a: 2 });
  assert.equal(lines.length + verbose.length, before, 'nothing traced once off');
});

test('--trace: a secret is redacted however a JSON encoder escaped it (Python, Go, either hex case, \\/), and the longer of two that share a prefix leaves no tail', async () => {
  const env = {
    PY_SECRET: 'pässwört-geheim-1', // Python's json.dumps: \u00e4 … \u00f6
    GO_TOKEN: '<tok&en>-value-99', // Go's encoding/json: \u003c \u0026 \u003e
    UP_PASSWORD: 'grüße-upper-case', // \u00FC \u00DF in upper-case hex
    URL_API_KEY: 'https://x/y/api-secret', // \/ as some encoders write it
    SHORT_TOKEN: 'prefix-secret-1',
    LONG_TOKEN: 'prefix-secret-1-and-its-tail',
  };
  const written = [
    'p\\u00e4ssw\\u00f6rt-geheim-1',
    '\\u003ctok\\u0026en\\u003e-value-99',
    'gr\\u00FC\\u00DFe-upper-case',
    'https:\\/\\/x\\/y\\/api-secret',
    'prefix-secret-1-and-its-tail',
    'p\\u00e4ssw\u00f6rt-geheim-1', // mixed: one escaped, one as is
  ];
  const raw = written.map((w) => `{"type":"notify","level":"info","message":"${w}"}\n`);
  const ext = makeExt(tmpdir(), 'escaper', { tools: [{ name: 'echo' }], raw });
  const r = await run(['tool', 'echo', '{}', '--no-discover', '--ext', ext, '--trace'], env);
  assert.equal(r.code, 0, r.stderr);
  const notes = r.stderr.split('\n').filter((l) => l.startsWith('[escaper] ← notify'));
  assert.equal(notes.length, written.length, r.stderr);
  for (const [i, line] of notes.entries()) {
    assert.equal(/** @type {{ message: string }} */ (JSON.parse(line.slice(line.indexOf('{')))).message, lib.REDACTED, `form ${i} (${written[i]}) is redacted whole: ${line}`);
  }
  assert.ok(!notes.some((l) => l.includes('its-tail')), 'no tail of the longer secret');
});

test('a line that is not JSON is quoted in the problem, with its secrets redacted: problems, the log file and zot-host\'s stderr', async (t) => {
  const secret = 'sk-live-not-json-0123456789';
  // As written, as Python escapes it, and with an upper-case hex escape (Go and Java write those): k is \u006B.
  const ext = makeExt(tmpdir(), 'notjson', { tools: [{ name: 'echo' }], raw: [`oops ${secret} is not a frame\n`, `{"type":"notify","message":"\\u0073k-live-not-json-0123456789" \n`, `{"type":"notify","message":"s\\u006B-live-not-json-0123456789" \n`] });
  const host = await startHost(t, [ext], { env: { ...process.env, MY_API_TOKEN: secret } });
  /** The extension as the host sees it now. */
  const notjson = () => {
    const view = host.get('notjson');
    assert.ok(view, 'the extension is known');
    return view;
  };
  const problems = await waitFor('three problems', () => {
    const p = notjson().problems.filter((x) => /not JSON/.test(x.message));
    return p.length === 3 && p;
  });
  assert.equal(problems[0].message, `not JSON (Unexpected token 'o'): oops ${lib.REDACTED} is not a frame`, 'the reason without V8\'s cut excerpt of the line');
  for (const p of problems) assert.ok(!p.message.includes(secret) && !p.message.includes('-live-not-json-0123456789') && p.message.includes(lib.REDACTED), p.message);
  await waitFor('the log file', () => readFileSync(notjson().logPath, 'utf8').includes('not JSON'));
  const log = readFileSync(notjson().logPath, 'utf8');
  assert.ok(!log.includes(secret) && log.includes(lib.REDACTED), log);
  assert.ok(!host.logs.some((e) => e.kind === 'host' && e.line.includes(secret)), 'nor in what the host reports');
  const r = await run(['doctor', '--no-discover', '--ext', ext], { MY_API_TOKEN: secret });
  assert.ok(r.stdout.includes('not JSON') || r.stderr.includes('not JSON'), r.stdout + r.stderr);
  assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'zot-host never prints it');
});
