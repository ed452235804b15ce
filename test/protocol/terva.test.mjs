// terva's frames (docs/TERVA.md sections 14 to 24) through the frame validator:
// every example an extension sends is accepted with its fields kept, bad
// fields are named, and the "not supported" answers are byte for byte those
// of section 20.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failed, lib, succeeded, TERVA_EXAMPLES as EXAMPLES } from '../helpers.mjs';

const { parseFrame, encodeFrame, notSupported, isRequestType, readDisplayHints, authorityOf } = lib;

/** @typedef {import('../../out/types/protocol/index.js').FrameFromExt} FrameFromExt */

const FROM_EXT = EXAMPLES.filter((e) => e.dir === 'ext_to_host' || e.dir === 'both');

/**
 * The frame of the example an extension sends of that name, failing the test when there is none.
 * @param {string} name
 */
const exampleFrame = (name) => {
  const example = FROM_EXT.find((e) => e.name === name);
  assert.ok(example, `an example "${name}"`);
  return example.frame;
};

test('every frame of terva\'s an extension may send is accepted, its fields kept', () => {
  assert.ok(FROM_EXT.length >= 37, `${FROM_EXT.length} examples`);
  const types = new Set();
  for (const { name, frame } of FROM_EXT) {
    const text = JSON.stringify(frame);
    const parsed = succeeded(parseFrame(text));
    types.add(frame.type);
    // The widget trees are the panels' (checked in their own tests); everything else is kept as sent.
    if (!['open_panel', 'panel_render', 'command_response'].includes(frame.type)) assert.deepEqual(parsed.frame, JSON.parse(text), name);
  }
  for (const t of ['bootstrap', 'register_context', 'refresh_context', 'context_card', 'context_card_clear', 'status_segment', 'set_withdrawn_tools',
    'host_tool_call', 'list_sessions', 'read_session', 'secret_set', 'secret_get', 'secret_delete', 'secret_list', 'register_connector', 'chat', 'chat_down']) {
    assert.ok(types.has(t), `an example of ${t}`);
  }
});

test('hello keeps min_protocol and register_tool its read_only, authority, essential and display', () => {
  const hello = /** @type {Extract<FrameFromExt, { type: 'hello' }>} */ (succeeded(parseFrame('{"type":"hello","name":"ledger","min_protocol":3}')).frame);
  assert.equal(hello.min_protocol, 3);
  const tool = /** @type {Extract<FrameFromExt, { type: 'register_tool' }>} */ (succeeded(parseFrame(JSON.stringify(exampleFrame('register_tool network-read display')))).frame);
  assert.equal(tool.authority, 'network-read');
  assert.deepEqual(tool.display, { subject: '{pair}', body: 'table', redact: ['api_key'] });
  const essential = /** @type {Extract<FrameFromExt, { type: 'register_tool' }>} */ (succeeded(parseFrame(JSON.stringify(exampleFrame('register_tool authority essential')))).frame);
  assert.equal(essential.essential, true);
  assert.equal(essential.read_only, true);
  // Fields terva always writes may come as null or not at all.
  succeeded(parseFrame('{"type":"set_withdrawn_tools","tools":null}'));
  succeeded(parseFrame('{"type":"set_withdrawn_tools"}'));
  succeeded(parseFrame('{"type":"register_context"}'));
  succeeded(parseFrame('{"type":"chat","id":"cs-2","frame":null}'));
  succeeded(parseFrame('{"type":"host_tool_call","id":"r","name":"grep"}'));
  succeeded(parseFrame('{"type":"hello","name":"x","min_protocol":0}'));
});

test('bad fields of terva\'s frames are named, and a request\'s problem still names its type and id', () => {
  /** @type {[string, RegExp][]} */
  const cases = [
    ['{"type":"hello","name":"x","min_protocol":"3"}', /"hello" frame: field "min_protocol" must be a whole number, 0 or more, got string "3"/],
    ['{"type":"hello","name":"x","min_protocol":-1}', /"min_protocol" must be a whole number, 0 or more/],
    ['{"type":"hello","name":"x","min_protocol":2.5}', /"min_protocol" must be a whole number/],
    ['{"type":"register_tool","name":"t","read_only":"yes"}', /"register_tool" frame: field "read_only" must be a boolean/],
    ['{"type":"register_tool","name":"t","essential":1}', /field "essential" must be a boolean/],
    ['{"type":"register_tool","name":"t","authority":5}', /field "authority" must be a string/],
    ['{"type":"context_card","text":"x"}', /"context_card" frame: field "id" is required/],
    ['{"type":"context_card","id":"c","priority":"high"}', /field "priority" must be a whole number/],
    ['{"type":"status_segment","id":3}', /field "id" must be a string/],
    ['{"type":"set_withdrawn_tools","tools":"all"}', /field "tools" must be a list of strings/],
    ['{"type":"set_withdrawn_tools","all":"true"}', /field "all" must be a boolean/],
    ['{"type":"chat","id":"cs","frame":[1]}', /field "frame" must be an object, got a list/],
    ['{"type":"chat_down"}', /"chat_down" frame: field "id" is required/],
    ['{"type":"bootstrap","message":7}', /"bootstrap" frame: field "message" must be a string/],
    ['{"type":"subscribe","intercept":"user_message"}', /list of strings/],
  ];
  for (const [line, re] of cases) assert.match(failed(parseFrame(line)).problem, re, line);
  /** @type {[string, string, RegExp][]} */
  const requests = [
    ['{"type":"host_tool_call","id":"r1","args":{}}', 'host_tool_call', /field "name" is required/],
    ['{"type":"host_tool_call","id":"r2","name":"grep","args":"x"}', 'host_tool_call', /field "args" must be an object/],
    ['{"type":"read_session","id":"r3"}', 'read_session', /field "session_id" is required/],
    ['{"type":"secret_set","id":"r4","key":"k"}', 'secret_set', /field "value" is required/],
    ['{"type":"secret_get","id":"r5","key":5}', 'secret_get', /field "key" must be a string/],
  ];
  for (const [line, type, re] of requests) {
    const r = failed(parseFrame(line));
    assert.match(r.problem, re, line);
    assert.equal(r.type, type);
    assert.equal(r.id, JSON.parse(line).id);
  }
});

test('the "not supported" answers are section 20\'s, byte for byte', () => {
  const expected = {
    host_tool_call: '{"type":"host_tool_result","id":"ID","content":[{"type":"text","text":"host tool calls are not supported by this host"}],"is_error":true}',
    list_sessions: '{"type":"session_list","id":"ID","sessions":null}',
    read_session: '{"type":"session_data","id":"ID","messages":null,"not_found":true}',
    secret_set: '{"type":"secret_ack","id":"ID","error":"this host does not broker extension secrets"}',
    secret_delete: '{"type":"secret_ack","id":"ID","error":"this host does not broker extension secrets"}',
    secret_get: '{"type":"secret_value","id":"ID","found":false,"error":"this host does not broker extension secrets"}',
    secret_list: '{"type":"secret_keys","id":"ID","keys":null,"error":"this host does not broker extension secrets"}',
  };
  for (const [type, text] of Object.entries(expected)) {
    assert.ok(isRequestType(type), type);
    assert.equal(encodeFrame(notSupported(type, 'ID')), `${text}\n`, type);
  }
  // The examples' own "not supported" lines agree.
  for (const e of EXAMPLES.filter((x) => x.name.endsWith('not supported'))) {
    /** @type {Partial<Record<string, import('../../out/types/protocol/index.js').RequestFromExtType>>} */
    const requestOf = { host_tool_result: 'host_tool_call', session_list: 'list_sessions', secret_ack: 'secret_set', secret_value: 'secret_get', secret_keys: 'secret_list' };
    const request = requestOf[e.frame.type];
    assert.ok(request, `${e.name} answers a request`);
    assert.ok(typeof e.frame.id === 'string', `${e.name} has an id`);
    assert.equal(encodeFrame(notSupported(request, e.frame.id)), `${JSON.stringify(e.frame)}\n`, e.name);
  }
  for (const t of ['hello', 'register_context', 'chat', 'toString', undefined]) assert.equal(isRequestType(t), false, String(t));
});

test('display hints: bad ones dropped and said, never the tool; bounded as terva bounds them', () => {
  assert.deepEqual(readDisplayHints(undefined), { dropped: [] });
  assert.deepEqual(readDisplayHints({ subject: '{customer} {invoice_id}', body: 'json', redact: ['smtp_password'] }), { hints: { subject: '{customer} {invoice_id}', body: 'json', redact: ['smtp_password'] }, dropped: [] });
  const long = readDisplayHints({ subject: 'é'.repeat(101), body: 'html' });
  assert.equal(long.hints, undefined, 'nothing usable left is no hint');
  assert.match(long.dropped.join('\n'), /longer than 200 bytes; dropped/);
  assert.match(long.dropped.join('\n'), /"display.body" "html" is none of text, json, diff, table; dropped/);
  assert.deepEqual(readDisplayHints({ subject: 'é'.repeat(100) }).hints, { subject: 'é'.repeat(100) }, '200 bytes is within the bound');
  const many = readDisplayHints({ redact: ['', 3, ...Array.from({ length: 20 }, (_, i) => `k${i}`)] });
  assert.ok(many.hints?.redact, 'names are kept');
  assert.equal(many.hints.redact.length, 16);
  assert.equal(many.hints.redact[0], 'k0');
  assert.match(many.dropped.join('\n'), /2 empty or non-string names dropped/);
  assert.match(many.dropped.join('\n'), /only the first 16 of 20 names kept/);
  assert.deepEqual(readDisplayHints('table'), { dropped: ['"display" is not an object; no hints kept'] });
});

test('authority: the class wins, read_only alone is local-read, anything else is side-effecting', () => {
  assert.equal(authorityOf('network-read', true), 'network-read');
  assert.equal(authorityOf(undefined, true), 'local-read');
  assert.equal(authorityOf('', true), 'local-read');
  assert.equal(authorityOf('user-interaction', true), undefined);
  assert.equal(authorityOf(undefined, false), undefined);
});

test('a display subject fills {key} from the top-level arguments as plain text, masks secret keys, and stays one short line', () => {
  const { displaySubject, isRedactedKey, MASK } = lib;
  assert.equal(displaySubject('{customer} {invoice_id}', { customer: 'ACME <b>', invoice_id: 'inv-7' }), 'ACME <b> inv-7', 'plain text, nothing interpreted');
  assert.equal(displaySubject('{pair} via {api_key}', { pair: 'EUR/CHF', api_key: 'sk-1' }), `EUR/CHF via ${MASK}`, 'the client\'s own list always masks');
  assert.equal(displaySubject('{who} {smtp_password} {code}', { who: 'ana', smtp_password: 'p', code: 'c' }, ['code']), `ana ${MASK} ${MASK}`, 'a tool\'s redact adds to the list');
  assert.equal(displaySubject('{missing}|{n}|{obj}', { n: 3, obj: { a: 1 } }), '|3|{"a":1}', 'a missing key is empty; others are JSON');
  assert.equal(displaySubject('{x}', { x: 'line one\nline two' }), 'line one line two');
  assert.equal(displaySubject('{x}', { x: 'y'.repeat(300) }).length, 200);
  assert.equal(displaySubject('{constructor}', {}), '', 'only the call\'s own keys');
  assert.ok(isRedactedKey('GitHub_Token') && isRedactedKey('Authorization') && !isRedactedKey('tokenizer') && !isRedactedKey('pair'));
});
