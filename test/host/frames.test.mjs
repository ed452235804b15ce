import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstText, makeExt, RecordingUI, startHost, tmpdir, lib, waitFor } from '../helpers.mjs';

test('malformed, non-object, unknown and binary frames are diagnostics; the stream goes on', async (t) => {
  const raw = [
    'this is not json\n',
    '[1,2,3]\n',
    '"just a string"\n',
    '{"no_type":true}\n',
    '{"type":"teleport","id":"1"}\n',
    '{"type":"register_tool","name":42}\n',
    '\u0000\u0001\u00fe binary garbage \u00ff\n',
    '{"type":"register_tool","name":"bad_schema","schema":"{not json"}\n',
    '{"type":"register_tool","name":"list_schema","schema":[1]}\n',
    '{"type":"register_tool","name":"string_schema","schema":"{\\"type\\":\\"object\\"}"}\n',
    '{"type":"register_command","name":"crlf"}\r\n',
    '{"type":"error","message":"something broke"}\n',
    '{"type":"subscribe","intercept":["session_start"]}\n',
  ];
  const dir = makeExt(tmpdir(), 'messy', { raw, tools: [{ name: 'echo' }], splitFrame: true });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui });
  await waitFor('split frame', () => ui.of('notify').length === 1);
  assert.deepEqual(ui.of('notify')[0].args, ['messy', 'info', 'split frame arrived']);
  const problems = host.get('messy')?.problems.map((p) => p.message).join('\n') ?? '';
  for (const re of [/not JSON.*this is not json/, /an array, not an object/, /a string, not an object/, /no "type"/, /unknown frame type "teleport"/,
    /field "name" must be a string/, /not JSON/, /tool "bad_schema" skipped: its schema is not valid JSON/, /tool "list_schema" skipped/,
    /reported an error: something broke/, /cannot intercept "session_start"/]) {
    assert.match(problems, re);
  }
  assert.equal(lib.stateOf(host.get('messy')), 'ready');
  assert.ok(host.findTool('string_schema'), 'a schema sent as a JSON string is accepted');
  assert.ok(host.findCommand('crlf'), 'a frame ended by \\r\\n is read');
  assert.equal((await host.runToolCall('echo', { still: 'works' })).outcome, 'completed');
});

test('a 4 MiB tool_result arrives; a longer frame is dropped, fails its own call at once, and later frames arrive', async (t) => {
  const dir = makeExt(tmpdir(), 'big', { tools: [
    { name: 'four', behaviour: 'big', size: 4 * 1024 * 1024 },
    { name: 'unicode', behaviour: 'big', size: 100_000, unit: 'é€𝄞' },
    { name: 'huge', behaviour: 'big', size: 9 * 1024 * 1024 },
    { name: 'echo' },
  ] });
  const host = await startHost(t, [dir]);
  const four = await host.runToolCall('four', {});
  assert.equal(four.outcome, 'completed');
  assert.equal(firstText(four).length, 4 * 1024 * 1024);
  // A large line that is not ASCII takes the UTF-8 path and arrives intact.
  const unicode = await host.runToolCall('unicode', {});
  assert.equal(firstText(unicode), 'é€𝄞'.repeat(100_000));
  const started = Date.now();
  const huge = await host.runToolCall('huge', {}, { timeoutMs: 30000 });
  assert.ok(Date.now() - started < 10000, 'not left to its timeout');
  assert.equal(huge.isError, true);
  assert.match(huge.message, /dropped a line of \d+ bytes: longer than the 8388608-byte limit/);
  assert.equal((await host.runToolCall('echo', { after: 'huge' })).outcome, 'completed');
  assert.equal(lib.stateOf(host.get('big')), 'ready');
});
