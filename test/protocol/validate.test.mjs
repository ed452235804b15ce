import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failed, lib, succeeded } from '../helpers.mjs';

const { parseFrame, encodeFrame } = lib;

test('every frame type an extension sends is accepted in its documented shape', () => {
  const frames = [
    { type: 'hello', name: 'w', version: '1', capabilities: ['tools', 'tool_cancel'] },
    { type: 'register_command', name: 'todo', description: 'd' },
    { type: 'register_tool', name: 't', description: 'd', schema: { type: 'object' }, deferred: false, interactive: true },
    { type: 'subscribe', events: ['turn_start'], intercept: ['tool_call'] },
    { type: 'ready' },
    { type: 'command_response', id: '7', action: 'open_panel', open_panel: { id: 'p', title: 'T', lines: ['a'], footer: 'f' } },
    { type: 'tool_result', id: '42', content: [{ type: 'text', text: 'x' }, { type: 'image', mime_type: 'image/png', data: 'AA==' }], is_error: false },
    { type: 'event_intercept_response', id: '9', block: true, reason: 'no' },
    { type: 'notify', level: 'success', message: 'ok' },
    { type: 'clear_notes' },
    { type: 'submit', text: 'hi' },
    { type: 'submit_slash', text: '/todo' },
    { type: 'open_panel', panel: { id: 'p', lines: [], tool_call_id: '3' } },
    { type: 'panel_render', panel_id: 'p', title: 't', lines: ['x'], footer: '' },
    { type: 'panel_close', panel_id: 'p' },
    { type: 'shutdown_ack' },
    { type: 'error', id: '1', message: 'bad' },
  ];
  for (const f of frames) {
    assert.deepEqual(succeeded(parseFrame(JSON.stringify(f))).frame, f, f.type);
  }
});

test('problems are reported, never thrown', () => {
  const cases = [
    ['not json', /not JSON/],
    ['\u0000\u00ff garbage', /not JSON/],
    ['[1,2]', /an array, not an object/],
    ['"text"', /a string, not an object/],
    ['null', /null, not an object/],
    ['42', /a number, not an object/],
    ['{"id":"1"}', /no "type"/],
    ['{"type":5}', /"type" must be a string/],
    ['{"type":"teleport"}', /unknown frame type "teleport"/],
    ['{"type":"hello"}', /"hello" frame: field "name" is required/],
    ['{"type":"register_tool","name":3}', /field "name" must be a string/],
    ['{"type":"hello","name":"x","capabilities":"tools"}', /list of strings/],
    ['{"type":"tool_result","id":"1","content":"x"}', /list of content blocks/],
    ['{"type":"tool_result","id":"1","content":[1]}', /item 0 must be an object/],
    ['{"type":"tool_result","id":"1","is_error":"yes"}', /must be a boolean/],
    ['{"type":"open_panel","panel":{"lines":[]}}', /non-empty string "id"/],
    ['{"type":"open_panel","panel":{"id":"p","lines":[1]}}', /"lines" must be a list of strings/],
  ];
  for (const [text, re] of /** @type {[string, RegExp][]} */ (cases)) {
    assert.match(failed(parseFrame(text)).problem, re, text);
  }
});

test('a malformed reply still names its type and id, so its call can fail at once', () => {
  const r = parseFrame('{"type":"tool_result","id":"77","content":{}}');
  assert.equal(r.ok, false);
  assert.equal(r.type, 'tool_result');
  assert.equal(r.id, '77');
});

test('optional nulls are read as absent', () => {
  const r = parseFrame('{"type":"register_command","name":"x","description":null}');
  assert.equal(r.ok, true);
  assert.equal('description' in r.frame, false);
});

test('frames to the extension are one compact line each', () => {
  /** @type {import('../../out/types/protocol/index.js').FrameFromHost[]} */
  const frames = [
    { type: 'hello_ack', protocol_version: 1, zot_version: '1', provider: '', model: '', cwd: '/p', extension_dir: '/e', data_dir: '/e' },
    { type: 'command_invoked', id: '1', name: 'x', args: 'a b' },
    { type: 'tool_call', id: '2', name: 't', args: { s: 'line\nbreak' } },
    { type: 'tool_cancel', id: '2' },
    { type: 'event', event: 'turn_start', cwd: '/p', sequence: 1, step: 1 },
    { type: 'event_intercept', id: '3', event: 'tool_call', tool_id: 'a', tool_name: 'b', tool_args: {} },
    { type: 'panel_key', panel_id: 'p', key: 'rune', text: 'x' },
    { type: 'panel_resize', panel_id: 'p', width: 80, height: 24 },
    { type: 'panel_close', panel_id: 'p' },
    { type: 'shutdown' },
  ];
  for (const f of frames) {
    const line = encodeFrame(f);
    assert.equal(line.indexOf('\n'), line.length - 1);
    assert.deepEqual(JSON.parse(line), f);
  }
});

test('content blocks come out of validation as a closed union: text, image, or other with the block as sent', () => {
  /** @param {unknown} content */
  const parsed = (content) => parseFrame(JSON.stringify({ type: 'tool_result', id: '1', content }));
  const ok = parsed([
    { type: 'text', text: 'plain' },
    { type: 'text' },
    { type: 'text', text: null },
    { type: 'image', mime_type: 'image/png', data: 'AA==' },
    { type: 'image' },
    { type: 'audio', data: 'x', mime_type: 'audio/wav' },
    { type: 'other', note: 'a block an extension named "other"' },
  ]);
  assert.deepEqual(/** @type {Extract<import('../../out/types/protocol/index.js').FrameFromExt, { type: 'tool_result' }>} */ (succeeded(ok).frame).content, [
    { type: 'text', text: 'plain' },
    { type: 'text', text: '' },
    { type: 'text', text: '' },
    { type: 'image', mime_type: 'image/png', data: 'AA==' },
    { type: 'image', mime_type: '', data: '' },
    { type: 'other', other_type: 'audio', block: { type: 'audio', data: 'x', mime_type: 'audio/wav' } },
    { type: 'other', other_type: 'other', block: { type: 'other', note: 'a block an extension named "other"' } },
  ]);
  for (const [content, problem] of [
    [[{ type: 'text', text: 42 }], /item 0 \("text" block\): "text" must be a string, got number 42$/],
    [[{ type: 'text', text: 'a' }, { type: 'image', mime_type: 'image/png', data: {} }], /item 1 \("image" block\): "data" must be a string, got an object$/],
    [[{ type: 'image', mime_type: 7, data: '' }], /item 0 \("image" block\): "mime_type" must be a string, got number 7$/],
    [[{ text: 'no type' }], /item 0 must be an object with a string "type"/],
  ]) {
    assert.match(failed(parsed(content)).problem, /** @type {RegExp} */ (problem), JSON.stringify(content));
  }
});
