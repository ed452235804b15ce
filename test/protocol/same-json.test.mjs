// sameJson: what "the guard changed nothing" means for a hook (src/host/hooks/agentHooks.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib } from '../helpers.mjs';

test('sameJson: equal whatever the order of keys at any level; an array\'s order, a value or a key\'s presence is a change', () => {
  const { sameJson } = lib;
  assert.equal(sameJson({ b: 1, a: { d: [1, { y: 2, x: 3 }], c: null } }, { a: { c: null, d: [1, { x: 3, y: 2 }] }, b: 1 }), true);
  assert.equal(sameJson({}, {}), true);
  assert.equal(sameJson({ a: [1, 2] }, { a: [2, 1] }), false, 'an array is ordered');
  assert.equal(sameJson({ a: 1 }, { a: '1' }), false);
  assert.equal(sameJson({ a: 1 }, { a: 1, b: undefined }), true, 'as JSON writes it: an undefined member is no member');
  assert.equal(sameJson({ a: 1 }, { a: 1, b: null }), false);
  assert.equal(sameJson(JSON.parse('{"__proto__": 1}'), {}), false, 'a key named __proto__ is a key');
  // Any depth, without overflowing: past the bound both are cut alike.
  const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
  assert.equal(sameJson(deep, deep), true);
});
