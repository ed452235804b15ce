// Values nested deeper than the frame bound, from a real extension process:
// one diagnostic each, the call they answer fails at once, and the extension
// goes on working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstText, lib, startHost, tmpdir, waitFor } from '../helpers.mjs';
import { makeHostile } from '../hostile.mjs';

/**
 * @param {import('../helpers.mjs').TestHost} host
 * @param {string} name
 */
const problems = (host, name) => {
  const ext = host.get(name);
  assert.ok(ext, `no extension "${name}"`);
  return ext.problems.map((p) => p.message);
};

test('a reply nested 100,000 deep fails its own call at once with one diagnostic; the next call works', async (t) => {
  const host = await startHost(t, [makeHostile(tmpdir(), 'deep-reply', { tools: [{ name: 'deep', result: 'deep' }, { name: 'plain' }] })]);
  const started = Date.now();
  const o = await host.runToolCall('deep', {}, { timeoutMs: 20_000 });
  assert.ok(Date.now() - started < 5000, 'the call fails when the reply arrives, not at its deadline');
  assert.equal(o.outcome, 'completed');
  assert.equal(o.isError, true);
  assert.match(o.message, /nested deeper than 64 levels/);
  assert.equal(problems(host, 'deep-reply').filter((m) => /nested deeper/.test(m)).length, 1);
  const next = await host.runToolCall('plain', { x: 1 });
  assert.equal(next.outcome, 'completed');
  assert.equal(firstText(next), 'plain ran with {"x":1}');
  assert.equal(lib.stateOf(host.get('deep-reply')), 'ready');
});

test('a frame exactly at the bound is accepted; one level more is not', () => {
  const nest = (/** @type {number} */ n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  // The frame is level 1, content level 2, the block level 3: 61 more levels make 64.
  const at = `{"type":"tool_result","id":"x","content":[{"type":"text","text":"","x":${nest(61)}}]}`;
  const over = `{"type":"tool_result","id":"x","content":[{"type":"text","text":"","x":${nest(62)}}]}`;
  assert.equal(lib.parseFrame(at).ok, true);
  const r = lib.parseFrame(over);
  assert.equal(r.ok, false);
  assert.equal(r.id, 'x');
  assert.equal(r.type, 'tool_result');
});

test('a tool whose schema is 5,000 deep is refused at registration, as an object or as a string; its siblings register', async (t) => {
  const host = await startHost(t, [makeHostile(tmpdir(), 'deep-schema', { tools: [
    { name: 'deep_obj', schemaDepth: 5000 },
    { name: 'deep_str', schemaDepth: 5000, schemaAsString: true },
    { name: 'fine', schemaDepth: 10 },
    { name: 'plain' },
  ] })]);
  await waitFor('ready', () => lib.stateOf(host.get('deep-schema')) === 'ready');
  assert.deepEqual(host.tools().map((x) => x.name).sort(), ['fine', 'plain']);
  const p = problems(host, 'deep-schema');
  assert.ok(p.some((m) => /nested deeper than 64 levels.*tool "deep_obj" not registered/.test(m)), p.join('\n'));
  assert.ok(p.some((m) => /tool "deep_str" skipped: its schema is nested deeper than 63 levels/.test(m)), p.join('\n'));
});

test('modified_args nested 100,000 deep from an interceptor are one diagnostic; the call runs with its own arguments', async (t) => {
  const host = await startHost(t, [makeHostile(tmpdir(), 'deep-guard', { tools: [{ name: 'plain' }], interceptDeep: true })]);
  const o = await host.runToolCall('plain', { keep: true }, {});
  assert.equal(o.outcome, 'completed');
  assert.equal(firstText(o), 'plain ran with {"keep":true}');
  const p = problems(host, 'deep-guard');
  assert.equal(p.length, 1, p.join('\n'));
  assert.match(p[0], /tool_call intercept \(treated as allow\): "event_intercept_response" frame: nested deeper than 64 levels/);
});
