import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failed, lib } from '../helpers.mjs';

const { deeperThan, boundedStringify, terminalSafe, singleLine, readToolSchema, CUT_MARKER, MAX_JSON_DEPTH } = lib;

/** @type {(n: number, leaf?: unknown) => unknown} */
const nest = (n, leaf = 1) => {
  let v = leaf;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

test('deeperThan counts objects and arrays, stops early, and survives any depth', () => {
  assert.equal(MAX_JSON_DEPTH, 64);
  assert.equal(deeperThan(1, 0), false);
  assert.equal(deeperThan(nest(64), 64), false);
  assert.equal(deeperThan(nest(65), 64), true);
  assert.equal(deeperThan(JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000)), 64), true);
  assert.equal(deeperThan({ wide: Array.from({ length: 10_000 }, () => ({ x: [1] })) }, 4), false);
  assert.equal(deeperThan({ wide: Array.from({ length: 10_000 }, () => ({ x: [1] })) }, 3), true);
});

test('boundedStringify is JSON.stringify within the bound, and cuts what is deeper instead of throwing', () => {
  const fine = { a: [1, { b: 'x' }], c: null };
  assert.equal(boundedStringify(fine), JSON.stringify(fine));
  assert.equal(boundedStringify(fine, 2), JSON.stringify(fine, null, 2));
  const deep = JSON.parse('{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000));
  assert.throws(() => JSON.stringify(deep), RangeError);
  const text = boundedStringify({ top: deep });
  assert.ok(text.includes(JSON.stringify(CUT_MARKER)));
  assert.equal(deeperThan(JSON.parse(text), 64), false);
});

test('terminalSafe escapes controls and bidi, keeps newlines, tabs and ordinary text', () => {
  assert.equal(terminalSafe('plain ü 日本 ✓\n\tnext'), 'plain ü 日本 ✓\n\tnext');
  assert.equal(terminalSafe('a\u001b[2K\rb'), 'a\\u001b[2K\\u000db');
  assert.equal(terminalSafe('x\u009b2J\u0007\u007f'), 'x\\u009b2J\\u0007\\u007f');
  assert.equal(terminalSafe('\u202eevil\u202c \u2066i\u2069 \u200f'), '\\u202eevil\\u202c \\u2066i\\u2069 \\u200f');
  assert.equal(terminalSafe('windows line\r\nnext'), 'windows line\nnext');
  // Applied to JSON text the result is still JSON with the same value.
  const value = { s: 'a\u202eb\u0085c' };
  assert.deepEqual(JSON.parse(terminalSafe(JSON.stringify(value))), value);
  assert.equal(singleLine('a\nb\tc'), 'a\\u000ab\\u0009c');
});

test('readToolSchema: an object, a JSON string, the default; bounded like a frame', () => {
  assert.deepEqual(readToolSchema(undefined), { ok: true, schema: { type: 'object', properties: {} } });
  assert.deepEqual(readToolSchema('{"type":"object"}'), { ok: true, schema: { type: 'object' } });
  assert.match(failed(readToolSchema('{')).problem, /not valid JSON/);
  assert.match(failed(readToolSchema('[1]')).problem, /must be a JSON Schema object/);
  assert.equal(readToolSchema({ type: 'object', x: nest(61, {}) }).ok, true);
  assert.match(failed(readToolSchema(JSON.stringify({ type: 'object', x: nest(62, {}) }))).problem, /nested deeper than 63 levels/);
});
