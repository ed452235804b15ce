// terva's frames through the real host, from a fixture written from docs/TERVA.md
// alone (test/fixtures/terva): every example an extension sends is accepted
// without a problem, every request is answered at once (with section 20's
// frame where the front end brings no service), min_protocol above this
// host's level is refused at load, and bootstrap lines before hello stretch
// the hello bound up to its ceiling. What the notices do: family.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alive, lib, makeTervaExt, RecordingUI, sleep, startHost, TERVA_EXAMPLES, tmpdir, waitFor } from '../helpers.mjs';

/** @typedef {import('../../out/types/host/index.js').ExtensionView} ExtensionView */
/** @typedef {import('../helpers.mjs').TestHost} TestHost */
/** @typedef {typeof TERVA_EXAMPLES[number]} Example */
/** @typedef {{ type: string, [key: string]: unknown }} Frame A frame as the fixture read or sent it. */

const FROM_EXT = TERVA_EXAMPLES.filter((e) => e.dir === 'ext_to_host' || e.dir === 'both');

/**
 * Section 20 of docs/TERVA.md, as written there, by request type.
 * @type {Record<string, string>}
 */
const NOT_SUPPORTED = {
  host_tool_call: '{"type":"host_tool_result","id":ID,"content":[{"type":"text","text":"host tool calls are not supported by this host"}],"is_error":true}',
  list_sessions: '{"type":"session_list","id":ID,"sessions":null}',
  read_session: '{"type":"session_data","id":ID,"messages":null,"not_found":true}',
  secret_set: '{"type":"secret_ack","id":ID,"error":"this host does not broker extension secrets"}',
  secret_delete: '{"type":"secret_ack","id":ID,"error":"this host does not broker extension secrets"}',
  secret_get: '{"type":"secret_value","id":ID,"found":false,"error":"this host does not broker extension secrets"}',
  secret_list: '{"type":"secret_keys","id":ID,"keys":null,"error":"this host does not broker extension secrets"}',
};
/** @param {Frame} frame */
const answerTo = (frame) => NOT_SUPPORTED[frame.type].replace('ID', JSON.stringify(frame.id));

/** Register-phase frames: what the Go SDK writes with hello, before it reads hello_ack (docs/TERVA.md 15.3, point 7). */
const REGISTER_PHASE = new Set(['register_tool', 'register_context', 'register_connector', 'subscribe']);
/** @param {Example} e */
const BEFORE_HELLO = (e) => e.frame.type === 'bootstrap' || e.frame.type === 'hello';
const burst = FROM_EXT.filter((e) => REGISTER_PHASE.has(e.frame.type)).map((e) => e.name);
const afterAck = FROM_EXT.filter((e) => !REGISTER_PHASE.has(e.frame.type) && !BEFORE_HELLO(e)).map((e) => e.name);
/** Every request of section 20 carries a string id. */
const requests = /** @type {(Frame & { id: string })[]} */ (FROM_EXT.filter((e) => e.frame.type in NOT_SUPPORTED).map((e) => e.frame));

/**
 * The lines the fixture read, byte for byte.
 * @param {TestHost} host
 * @param {string} name
 */
const rawReceived = (host, name) => host.stderrOf(name).filter((l) => l.startsWith('RECV ')).map((l) => l.slice(5));
/**
 * How long each request waited for its answer, by id, as the fixture measured it.
 * @param {TestHost} host
 * @param {string} name
 */
const answerDelays = (host, name) => new Map(host.stderrOf(name).filter((l) => l.startsWith('ANSWER ')).map((l) => l.split(' ')).map(([, id, ms]) => /** @type {const} */ ([id, Number(ms)])));
/** @param {TestHost} host @param {string} name */
const pidOf = (host, name) => waitFor('its pid', () => Number(host.stderrOf(name).find((l) => l.startsWith('PID '))?.split(' ')[1]));
/** @param {ExtensionView | undefined} rt */
const problems = (rt) => {
  assert.ok(rt, 'no such extension');
  return rt.problems.map((p) => p.message);
};

test('every example frame an extension sends is accepted without a problem; each request is answered at once with section 20\'s frame', async (t) => {
  assert.equal(burst.length + afterAck.length + FROM_EXT.filter(BEFORE_HELLO).length, FROM_EXT.length);
  const dir = makeTervaExt(tmpdir(), 'ledger', { burst, afterAck });
  const host = await startHost(t, [dir], { ui: new RecordingUI() });
  const rt = host.get('ledger');
  assert.ok(rt);
  await waitFor('every request answered', () => answerDelays(host, 'ledger').size === requests.length, 5000);
  await sleep(300); // anything that would come late, or twice

  assert.equal(lib.stateOf(rt), 'ready');
  assert.deepEqual(problems(rt), []);
  const raw = rawReceived(host, 'ledger');
  for (const r of requests) {
    assert.deepEqual(raw.filter((l) => l.includes(`"id":${JSON.stringify(r.id)}`)), [answerTo(r)], `${r.type} ${r.id}: one answer, section 20's bytes`);
    const ms = answerDelays(host, 'ledger').get(r.id);
    assert.ok(ms !== undefined && ms < 1000, `${r.id} answered after ${ms} ms`);
  }
  // Nothing else reached it: the answers follow requests, and no new host frame goes unasked (docs/TERVA.md 23.1).
  const types = raw.map((l) => /** @type {Frame} */ (JSON.parse(l)).type);
  assert.deepEqual(types.filter((x) => x !== 'hello_ack' && !['host_tool_result', 'session_list', 'session_data', 'secret_ack', 'secret_value', 'secret_keys'].includes(x)), []);
  assert.equal(types.filter((x) => x === 'hello_ack').length, 1);

  // hello_ack claims terva's level 6, keeps zot's fields, and lists only the events this host emits.
  /** @type {Frame} */
  const ack = JSON.parse(raw[0]);
  assert.deepEqual(Object.keys(ack), ['type', 'protocol_version', 'zot_version', 'host_version', 'provider', 'model', 'cwd', 'extension_dir', 'data_dir', 'supported_events', 'capabilities']);
  assert.equal(ack.protocol_version, 6);
  assert.equal(ack.zot_version, '0.3.73');
  assert.equal(ack.terva_version, undefined, 'no terva release is named: this host matches none');
  assert.deepEqual(ack.supported_events, [...lib.SUPPORTED_EVENTS]);
  assert.deepEqual(ack.capabilities, ['call_tool'], 'zot\'s call_tool, which zot\'s Go SDK checks for');

  // What this host has no place for is noted once, not per frame, and is no problem: the connector and its chat frames.
  assert.deepEqual([...rt.notes], [
    'offered a chat connector (register_connector); this host has no chat connectors, so it never opens a chat session',
    '"chat" frames are dropped: this host opened no chat session',
    '"chat_down" frames are dropped: this host opened no chat session',
  ]);
  const report = host.diagnostics().find((r) => r.name === 'ledger');
  assert.ok(report);
  assert.deepEqual(report.notes, [...rt.notes]);
  assert.deepEqual(report.diagnostics, []);
  const noted = host.logs.filter((e) => e.extension === 'ledger' && e.kind === 'host' && rt.notes.includes(e.line));
  assert.equal(noted.length, 3, 'one log line each');

  // Replies to nothing pending (the examples' command_response and intercept answers) are dropped as late, silently.
  assert.equal(rt.lateReplies, 3);
});

test('register_tool\'s new fields are kept with the tool in the registry, and newer subscriptions are accepted', async (t) => {
  const dir = makeTervaExt(tmpdir(), 'ledger', { burst });
  const host = await startHost(t, [dir]);
  await waitFor('registered', () => host.findTool('invoice_send'));
  const balance = host.findTool('ledger_balance');
  assert.ok(balance);
  assert.equal(balance.readOnly, true);
  assert.equal(balance.authority, undefined);
  assert.equal(balance.essential, false);
  const search = host.findTool('ledger_search');
  assert.ok(search);
  assert.deepEqual([search.readOnly, search.authority, search.essential], [true, 'local-read', true]);
  assert.deepEqual(host.findTool('rates_fetch')?.display, { subject: '{pair}', body: 'table', redact: ['api_key'] });
  assert.equal(host.findTool('rates_fetch')?.authority, 'network-read');
  assert.deepEqual(host.findTool('invoice_send')?.display, { subject: '{customer} {invoice_id}', body: 'json', redact: ['smtp_password'] });
  assert.equal(host.findTool('invoice_send')?.authority, 'external-mutation');
  const rt = host.get('ledger');
  assert.ok(rt);
  assert.deepEqual([...rt.events], ['session_start', 'session_end', 'run_end', 'tool_result', 'user_message', 'workspace_changed', 'compact_start', 'transcript_compacted', 'config_update']);
  assert.deepEqual([...rt.intercepts], ['user_message', 'tool_call']);
  assert.deepEqual(problems(rt), []);
});

test('a bad display hint or a fourth essential tool costs no registration: each drop goes to the log', async (t) => {
  /** @type {(name: string, extra: Record<string, unknown>) => Record<string, unknown>} */
  const tool = (name, extra) => ({ type: 'register_tool', name, description: '', schema: { type: 'object' }, ...extra });
  const dir = makeTervaExt(tmpdir(), 'hints', {
    burst: [
      ...['e1', 'e2', 'e3', 'e4'].map((n) => tool(n, { essential: true })),
      tool('e1', { essential: true, description: 'again' }), // registering one again does not count twice
      tool('shown', { display: { subject: 'x'.repeat(201), body: 'html', redact: ['token'] } }),
      tool('hintless', { display: { body: 'svg' } }),
    ],
  });
  const host = await startHost(t, [dir]);
  await waitFor('registered', () => host.findTool('hintless'));
  assert.deepEqual(['e1', 'e2', 'e3', 'e4'].map((n) => host.findTool(n)?.essential), [true, true, true, false]);
  assert.deepEqual(host.findTool('shown')?.display, { redact: ['token'] });
  assert.equal(host.findTool('hintless')?.display, undefined);
  assert.deepEqual(problems(host.get('hints')), []);
  const lines = host.logs.filter((e) => e.extension === 'hints' && e.kind === 'host').map((e) => e.line).join('\n');
  assert.match(lines, /tool "e4" registered as an ordinary tool: only 3 tools of one extension can be essential/);
  assert.match(lines, /tool "shown": "display.subject" is longer than 200 bytes; dropped/);
  assert.match(lines, /tool "hintless": "display.body" "svg" is none of text, json, diff, table; dropped/);
});

test('a slow handler of the host does not hold an answer back: requests behind a notify that takes 3 s are answered within 1 s', async (t) => {
  let notifying = 0;
  const ui = new RecordingUI({ notify: () => { notifying++; return sleep(3000); } });
  const dir = makeTervaExt(tmpdir(), 'patient', { afterAck: [{ type: 'notify', level: 'info', message: 'slow to show' }, { type: 'notify', message: 'queued behind it' }, ...requests] });
  const host = await startHost(t, [dir], { ui });
  await waitFor('every request answered', () => answerDelays(host, 'patient').size === requests.length, 2500);
  assert.equal(notifying, 1, 'the first note is still being shown, the second waits for it');
  for (const [id, ms] of answerDelays(host, 'patient')) assert.ok(ms < 1000, `${id} answered after ${ms} ms`);
});

test('a malformed request with an id is a problem and still gets its answer', async (t) => {
  const bad = [{ type: 'secret_set', id: 'bad-1', key: 'k' }, { type: 'host_tool_call', id: 'bad-2', args: {} }, { type: 'read_session', id: 'bad-3', session_id: 7 }];
  const dir = makeTervaExt(tmpdir(), 'sloppy', { afterAck: bad });
  const host = await startHost(t, [dir]);
  await waitFor('answered', () => answerDelays(host, 'sloppy').size === bad.length, 3000);
  const raw = rawReceived(host, 'sloppy');
  for (const f of bad) assert.ok(raw.includes(answerTo(f)), `${f.id} answered`);
  const said = problems(host.get('sloppy')).join('\n');
  assert.match(said, /"secret_set" frame: field "value" is required/);
  assert.match(said, /"host_tool_call" frame: field "name" is required/);
  assert.match(said, /"read_session" frame: field "session_id" must be a string/);
  assert.equal(lib.stateOf(host.get('sloppy')), 'ready');
});

test('min_protocol above this host\'s level: refused at load with 15.3\'s sentence, no hello_ack, no answer, no process left', async (t) => {
  const dir = makeTervaExt(tmpdir(), 'strict', { minProtocol: 7, burst: ['register_tool read_only', 'register_context', 'host_tool_call'] });
  const host = await startHost(t, [dir]);
  const rt = host.get('strict');
  assert.ok(rt);
  const pid = await pidOf(host, 'strict');
  await waitFor('failed', () => lib.stateOf(rt) === 'failed');
  const sentence = `extension strict requires protocol version 7 but this host speaks 6; upgrade zot-extensions (this is ${lib.HOST_VERSION})`;
  assert.equal(rt.error, sentence);
  assert.deepEqual(problems(rt), [sentence]);
  const report = host.diagnostics().find((r) => r.name === 'strict');
  assert.ok(report);
  assert.equal(report.error, sentence);
  assert.equal(report.kind, 'failed');
  await waitFor('its process gone', () => !alive(pid), 5000);
  await waitFor('nothing left of its launch', () => rt.pid === undefined);
  const types = rawReceived(host, 'strict').map((l) => /** @type {Frame} */ (JSON.parse(l)).type);
  assert.ok(!types.includes('hello_ack'), `it read ${types.join(', ')}`);
  assert.ok(!types.includes('host_tool_result'), 'nothing it sent after its refused hello is answered');
  assert.equal(host.findTool('ledger_balance'), undefined);
  await sleep(400);
  assert.equal(lib.stateOf(rt), 'failed', 'not restarted');
});

test('min_protocol at or below this host\'s level loads as usual', async (t) => {
  const root = tmpdir();
  const host = await startHost(t, [makeTervaExt(root, 'six', { minProtocol: 6 }), makeTervaExt(root, 'one', { minProtocol: 1 }), makeTervaExt(root, 'zero', { minProtocol: 0 })]);
  for (const name of ['six', 'one', 'zero']) {
    assert.equal(lib.stateOf(host.get(name)), 'ready', name);
    await waitFor(`${name} read hello_ack`, () => rawReceived(host, name).some((l) => /** @type {Frame} */ (JSON.parse(l)).type === 'hello_ack'));
  }
});

test('bootstrap lines restart the hello bound: a launcher that builds for longer than it loads, and shows its progress', async (t) => {
  const message = 'installing node modules (first start)';
  const dir = makeTervaExt(tmpdir(), 'builder', { examples: ['bootstrap bare'], bootstrap: { count: 6, everyMs: 500, message } });
  const host = await startHost(t, [dir], { noStart: true, timing: { helloTimeoutMs: 1500, readyGraceMs: 8000 } });
  /** @type {(string | undefined)[]} */
  const seen = [];
  host.onDidChangeState(({ extension, new: s }) => extension.name === 'builder' && s.kind === 'starting' && seen.push(s.bootstrap));
  const started = Date.now();
  await host.start();
  const rt = host.get('builder');
  assert.ok(rt);
  assert.equal(lib.stateOf(rt), 'ready', `${lib.stateOf(rt)}: ${rt.error}`);
  assert.ok(Date.now() - started >= 2500, 'hello came well after the 1.5 s bound');
  assert.deepEqual(seen.filter(Boolean), ['starting', ...Array(6).fill(message)], 'a bare bootstrap reads as "starting"');
  assert.equal(rt.bootstrap, message);
  assert.equal(host.diagnostics().find((r) => r.name === 'builder')?.bootstrap, message);
  const logged = host.logs.filter((e) => e.extension === 'builder' && e.kind === 'host' && e.line === `bootstrap: ${message}`);
  assert.equal(logged.length, 6);
  assert.deepEqual(problems(rt), []);
});

test('a launcher that goes quiet after its bootstrap lines fails at the hello bound, saying so', async (t) => {
  const dir = makeTervaExt(tmpdir(), 'stalled', { bootstrap: { count: 2, everyMs: 200, message: 'go build', noHello: true } });
  const host = await startHost(t, [dir], { timing: { helloTimeoutMs: 1500, readyGraceMs: 300 } });
  const rt = host.get('stalled');
  assert.ok(rt);
  const pid = await pidOf(host, 'stalled');
  await waitFor('failed', () => lib.stateOf(rt) === 'failed', 5000);
  assert.ok(rt.error);
  assert.match(rt.error, /^did not say hello within 1\.5 s of its last bootstrap line \("go build"\); see its log at /);
  await waitFor('its process gone', () => !alive(pid), 5000);
});

test('the bootstrap ceiling holds: however often it says bootstrap, hello must come within the limit from the spawn', async (t) => {
  const dir = makeTervaExt(tmpdir(), 'forever', { bootstrap: { count: -1, everyMs: 100, message: 'still compiling' } });
  const started = Date.now();
  const host = await startHost(t, [dir], { timing: { helloTimeoutMs: 1500, bootstrapLimitMs: 2500, readyGraceMs: 300 } });
  const rt = host.get('forever');
  assert.ok(rt);
  const pid = await pidOf(host, 'forever');
  await waitFor('failed', () => lib.stateOf(rt) === 'failed', 6000);
  const took = Date.now() - started;
  assert.ok(took >= 2500 && took < 4500, `failed after ${took} ms`);
  assert.ok(rt.error);
  assert.match(rt.error, /^still bootstrapping after 2\.5 s \(last: "still compiling"\); see its log at /);
  assert.equal(rt.bootstrap, 'still compiling');
  await waitFor('its process gone', () => !alive(pid), 5000);
  assert.equal(lib.stateOf(rt), 'failed', 'not restarted');
});

test('the ceiling holds with no bootstrap line after it: the last quiet bound is cut to what is left', async (t) => {
  const dir = makeTervaExt(tmpdir(), 'late', { bootstrap: { count: 3, everyMs: 300, message: 'fetching', noHello: true } });
  const started = Date.now();
  const host = await startHost(t, [dir], { timing: { helloTimeoutMs: 2000, bootstrapLimitMs: 1200, readyGraceMs: 300 } });
  const rt = host.get('late');
  assert.ok(rt);
  await waitFor('failed', () => lib.stateOf(rt) === 'failed', 4000);
  const took = Date.now() - started;
  assert.ok(took >= 1200 && took < 2500, `failed after ${took} ms, not at the 1.2 s ceiling`);
  assert.ok(rt.error);
  assert.match(rt.error, /^still bootstrapping after 1\.2 s/);
});

test('a bootstrap after hello is an unknown-type problem, as terva reports it, and changes nothing else', async (t) => {
  const dir = makeTervaExt(tmpdir(), 'chatty', { afterAck: ['bootstrap', 'list_sessions'] });
  const host = await startHost(t, [dir]);
  const rt = host.get('chatty');
  assert.ok(rt);
  await waitFor('the problem', () => rt.problems.length > 0);
  assert.deepEqual(problems(rt), ['unknown frame type "bootstrap" after hello (a launcher may send it only before hello); ignored']);
  assert.equal(lib.stateOf(rt), 'ready');
  assert.equal(rt.bootstrap, undefined);
});

test('a bootstrap line is shown on one line, cut to 200 characters', async (t) => {
  const message = `line one\nline two ${'y'.repeat(500)}`;
  const host = await startHost(t, [makeTervaExt(tmpdir(), 'wordy', { bootstrap: { count: 1, everyMs: 10, message } })]);
  const shown = host.get('wordy')?.bootstrap;
  assert.equal(shown, `line one\\u000aline two ${'y'.repeat(200 - 'line one\\u000aline two '.length)}… (${message.length} chars)`);
});
