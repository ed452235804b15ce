import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib } from '../helpers.mjs';
import { collect } from './splitter.mjs';

const { DEFAULT_MAX_LINE_BYTES } = lib;
const enc = new TextEncoder();

test('the maximum line is documented as at least 4 MiB', () => {
  assert.ok(DEFAULT_MAX_LINE_BYTES >= 4 * 1024 * 1024);
});

test('lines come out the same however the bytes are chunked', () => {
  const input = enc.encode('{"a":1}\n{"b":"ü€𝄞"}\r\n\n{"c":3}\n');
  const expected = ['{"a":1}', '{"b":"ü€𝄞"}', '', '{"c":3}'];
  for (let size = 1; size <= input.length; size++) {
    const { s, lines } = collect();
    for (let i = 0; i < input.length; i += size) s.push(input.subarray(i, i + size));
    s.end();
    assert.deepEqual(lines, expected, `chunk size ${size}`);
  }
  // and random chunkings
  for (let round = 0; round < 200; round++) {
    const { s, lines } = collect();
    let i = 0;
    while (i < input.length) {
      const n = 1 + Math.floor(Math.random() * 7);
      s.push(input.subarray(i, i + n));
      i += n;
    }
    assert.deepEqual(lines, expected);
  }
});

test('a last line without a newline still counts at the end of the stream', () => {
  const { s, lines } = collect();
  s.push(enc.encode('one\ntw'));
  s.push(enc.encode('o'));
  assert.deepEqual(lines, ['one']);
  s.end();
  assert.deepEqual(lines, ['one', 'two']);
});

test('a line over the limit is dropped with its size and head, and the next line arrives', () => {
  const { s, lines, oversized } = collect(100);
  const long = '{"type":"tool_result","id":"42","content":"' + 'x'.repeat(500) + '"}';
  // in one chunk
  s.push(enc.encode(`${long}\nafter\n`));
  assert.deepEqual(lines, ['after']);
  assert.equal(oversized.length, 1);
  assert.equal(oversized[0].n, long.length);
  assert.match(oversized[0].head, /"id":"42"/);
  // streamed in small chunks: never buffered whole
  const bytes = enc.encode(`${long}\nnext\n`);
  for (let i = 0; i < bytes.length; i += 16) s.push(bytes.subarray(i, i + 16));
  assert.deepEqual(lines, ['after', 'next']);
  assert.equal(oversized[1].n, long.length);
  assert.match(oversized[1].head, /"type":"tool_result"/);
});

test('a line exactly at the limit is kept', () => {
  const { s, lines, oversized } = collect(10);
  s.push(enc.encode('0123456789\n'));
  s.push(enc.encode('01234'));
  s.push(enc.encode('56789\n'));
  assert.deepEqual(lines, ['0123456789', '0123456789']);
  assert.equal(oversized.length, 0);
});

test('a 4 MiB line in 64 KiB chunks arrives intact', () => {
  const { s, lines } = collect();
  const payload = 'y'.repeat(4 * 1024 * 1024);
  const bytes = enc.encode(payload + '\n');
  for (let i = 0; i < bytes.length; i += 65536) s.push(bytes.subarray(i, i + 65536));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].length, payload.length);
});
