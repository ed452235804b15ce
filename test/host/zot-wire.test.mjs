// zot's protocol 1 after v0.3.73 (docs/ZOT.md 2), with real processes: an
// extension written from ZOT.md as zot's Go SDK behaves (test/fixtures/zot)
// composes tools through call_tool, with a guard in front of the inner call;
// every refusal comes in zot's order and words; a cancel reaches the callee;
// answers are bounded; exposure and replay are registered as zot registers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstText, lib, makeExt, makeZotExt, ownFields, startHost, tmpdir, waitFor } from '../helpers.mjs';

const RATE = { name: 'rate_lookup', description: 'Exchange rate for a currency pair.', schema: { type: 'object', properties: { pair: { type: 'string' } }, required: ['pair'] }, output_schema: { type: 'object', properties: { rate: { type: 'number' } } }, namespace: 'rates' };
const rates = (/** @type {string} */ root) => makeZotExt(root, 'rates', {
  tools: [RATE, { name: 'huge', description: 'a long answer' }, { name: 'slow', description: 'works until cancelled' }, { name: 'ask', description: 'asks the user', interactive: true }],
  handlers: {
    rate_lookup: { kind: 'reply', result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412 (ECB, 2026-12-07)' }], structured_content: { pair: 'CHF/EUR', rate: 1.0412 } } },
    huge: { kind: 'big', bytes: 300 * 1024 },
    slow: { kind: 'wait' },
  },
});

test('call_tool: a tool composed from another extension\'s tool, the guard asked about the inner call with its origin, events of both calls in both families\' fields', async (t) => {
  const root = tmpdir();
  const ledger = makeZotExt(root, 'ledger', {
    tools: [{ name: 'ledger_post', description: 'Post an amount.', schema: { type: 'object' } }],
    handlers: { ledger_post: { kind: 'call', name: 'rate_lookup', args: { pair: 'CHF/EUR' } } },
  });
  const guard = makeZotExt(root, 'audit', { subscribe: { events: ['tool_call', 'permission_decision', 'tool_result'], intercept: ['tool_call'] } });
  const host = await startHost(t, [ledger, rates(root), guard]);
  host.beginSession({ session_id: 'sess-7f3c', cwd: '/srv/code/shop-api' });
  const o = await host.runToolCall('ledger_post', { account: '4020', amount_cents: 1250 }, { toolId: 'toolu_01' });
  assert.equal(firstText(o), 'ledger_post got: CHF/EUR 1.0412 (ECB, 2026-12-07)');
  // The Go SDK's CallTool: its own id, the parent's wire id; the host's answer names the tool and passes no structured_content.
  const [call] = host.received('ledger').filter((f) => f.type === 'tool_call');
  const answer = host.received('ledger').find((f) => f.type === 'tool_result');
  assert.deepEqual(answer, { type: 'tool_result', id: 'sdk-1', name: 'rate_lookup', content: [{ type: 'text', text: 'CHF/EUR 1.0412 (ECB, 2026-12-07)' }] });
  assert.ok(call);
  await waitFor('both results heard', () => host.received('audit', 'event').filter((f) => f.event === 'tool_result').length === 2);
  const heard = host.received('audit').filter((f) => f.type === 'event' || f.type === 'event_intercept');
  assert.deepEqual(heard.map((f) => `${f.type === 'event' ? 'event' : 'intercept'} ${f.event} ${f.tool_name} ${f.origin_extension ?? '-'}`), [
    'event tool_call ledger_post -', 'intercept tool_call ledger_post -', 'event permission_decision ledger_post -',
    'event tool_call rate_lookup ledger', 'intercept tool_call rate_lookup ledger', 'event permission_decision rate_lookup ledger', 'event tool_result rate_lookup ledger',
    'event tool_result ledger_post -',
  ]);
  const inner = heard.find((f) => f.event === 'tool_result' && f.tool_name === 'rate_lookup');
  assert.ok(inner);
  assert.match(String(inner.tool_id), /^ext-call-/, 'a host-made tool_id');
  assert.deepEqual(ownFields(inner), {
    type: 'event', event: 'tool_result', origin_extension: 'ledger', tool_id: inner.tool_id, tool_name: 'rate_lookup', tool_args: { pair: 'CHF/EUR' },
    status: 'completed', executed: true, result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412 (ECB, 2026-12-07)' }], is_error: false },
    text: 'CHF/EUR 1.0412 (ECB, 2026-12-07)',
  });
  assert.deepEqual([inner.session_id, inner.cwd], ['sess-7f3c', '/srv/code/shop-api']);
  const decision = heard.find((f) => f.event === 'permission_decision' && f.tool_name === 'ledger_post');
  assert.deepEqual(ownFields(decision), { type: 'event', event: 'permission_decision', tool_id: 'toolu_01', tool_name: 'ledger_post', decision: 'approved', source: 'yolo', stage: 'pre_execution' });
  // Every field each event carried is one zot or terva names.
  assert.deepEqual(host.stderrOf('audit').filter((l) => l.startsWith('UNKNOWN ')), []);
  // The outcome keeps the callee's structured content for its own caller (MCP, the CLI), not for the one that composed it.
  const direct = await host.runToolCall('rate_lookup', { pair: 'CHF/EUR' });
  assert.deepEqual(direct.outcome === 'completed' && direct.structured, { pair: 'CHF/EUR', rate: 1.0412 });
});

test('call_tool: every refusal in zot\'s order and words, each answered; a frame without an id is the only one left unanswered', async (t) => {
  const root = tmpdir();
  const chain = (/** @type {number} */ n) => ({ name: `t${n}`, description: `step ${n}` });
  const composer = makeZotExt(root, 'composer', {
    tools: [{ name: 'loop', description: 'calls itself' }, { name: 'orphan', description: 'calls without parent_id' }, { name: 'stranger', description: 'names another parent' }, chain(1), chain(2), chain(3), chain(4), chain(5)],
    handlers: {
      loop: { kind: 'call', name: 'loop', args: {} },
      orphan: { kind: 'call', name: 't5', args: {}, parent: null },
      stranger: { kind: 'call', name: 't5', args: {}, parent: '999999' },
      t1: { kind: 'call', name: 't2', args: {} }, t2: { kind: 'call', name: 't3', args: {} }, t3: { kind: 'call', name: 't4', args: {} }, t4: { kind: 'call', name: 't5', args: {} },
    },
    // Frames as a hand-written extension may send them, outside any tool call.
    raw: [
      { type: 'call_tool', id: 'r1', name: 't5', args: [1, 2] },
      { type: 'call_tool', id: 'r2', args: {} },
      { type: 'call_tool', id: 'r3', name: 't5', args: {}, parent_id: 7 },
      { type: 'call_tool', id: 'r4', name: 'no_such_tool', args: {} },
      { type: 'call_tool', name: 't5', args: {} },
      { type: 'call_tool_cancel', id: 'never-sent' },
    ],
  });
  const legacy = makeZotExt(root, 'legacy', { caps: ['commands', 'tools', 'events', 'tool_cancel'], tools: [{ name: 'old', description: 'v0.3.73 SDK' }], handlers: { old: { kind: 'call', name: 't5', args: {} } } });
  const host = await startHost(t, [composer, legacy]);
  const text = async (/** @type {string} */ tool) => firstText(await host.runToolCall(tool, {}));
  assert.equal(await text('old'), 'old got: error: extension did not opt in to call_tool');
  assert.equal(await text('stranger'), 'stranger got: error: unknown or expired parent tool call');
  assert.equal(await text('orphan'), 'orphan got: error: parent_id is required while an extension tool is active');
  assert.equal(await text('loop'), 'loop got: error: tool call cycle detected');
  // t1 → t2 → t3 → t4: four tools in the chain, the model's own call included; t4's call of t5 is the fifth.
  assert.equal(await text('t1'), 't1 got: t2 got: t3 got: t4 got: error: tool call depth limit reached');
  const answers = Object.fromEntries(host.received('composer', 'tool_result').filter((f) => f.id.startsWith('r')).map((f) => [f.id, [f.content[0]?.type === 'text' ? f.content[0].text : '', f.is_error]]));
  assert.deepEqual(answers, {
    r1: ['call_tool requires a name and JSON object args', true],
    r2: ['call_tool requires a name and JSON object args', true],
    r3: ['call_tool requires a name and JSON object args', true],
    r4: ['unknown tool "no_such_tool"', true],
  });
  assert.deepEqual(host.get('composer')?.problems.map((p) => p.message).filter((m) => /call_tool/.test(m)), [
    '"call_tool" frame: field "parent_id" must be a string, got number 7',
    '"call_tool" frame: field "id" is required',
  ]);
  assert.equal(lib.stateOf(host.get('composer')), 'ready', 'nothing of it took the extension down');
});

test('call_tool: the caller\'s cancel reaches the callee as tool_cancel and is answered "aborted: context canceled"; a cut answer says truncated; an interactive callee without a UI is refused in zot\'s words', async (t) => {
  const root = tmpdir();
  const caller = makeZotExt(root, 'caller', {
    callWaitMs: 400,
    tools: [{ name: 'impatient', description: 'gives up after 400 ms' }, { name: 'reader', description: 'reads a long answer' }, { name: 'asker', description: 'asks through another tool' }],
    handlers: { impatient: { kind: 'call', name: 'slow', args: {} }, reader: { kind: 'call', name: 'huge', args: {} }, asker: { kind: 'call', name: 'ask', args: {} } },
  });
  const host = await startHost(t, [caller, rates(root)]);
  assert.equal(firstText(await host.runToolCall('impatient', {})), 'impatient got: error: context deadline exceeded');
  await waitFor('the callee told', () => host.stderrOf('rates').some((l) => l.startsWith('CANCELLED ')));
  const cancelled = await waitFor('the answer to the cancelled request', () => host.received('caller').find((f) => f.type === 'tool_result' && f.id === 'sdk-1'));
  assert.deepEqual(cancelled, { type: 'tool_result', id: 'sdk-1', name: 'slow', content: [{ type: 'text', text: 'aborted: context canceled' }], is_error: true });

  // 300 KiB from the callee: the answer holds 256 KiB of it and says it was cut, which the Go SDK appends as a block.
  const long = firstText(await host.runToolCall('reader', {}));
  assert.equal(long, `reader got: ${'x'.repeat(lib.MAX_RESULT_BYTES)}\n[tool result truncated by host]`);

  assert.equal(firstText(await host.runToolCall('asker', {})), 'asker got: error: interactive extension tools require an interactive host');
});

test('exposure and replay as zot registers them: deferred and codemode hidden until activated, model-only and an explicit direct listed, an unknown exposure not registered, an unknown replay registered as never', async (t) => {
  const tools = [
    { name: 'notes_find', exposure: 'deferred' }, { name: 'script_only', exposure: 'codemode' }, { name: 'chat_only', exposure: 'model-only' },
    { name: 'loud', exposure: 'direct', deferred: true }, { name: 'legacy_hidden', deferred: true }, { name: 'notes_export', exposure: 'hidden' },
    { name: 'invoice_void', replay: 'sometimes' }, { name: 'invoice_send', replay: 'reconcile' }, { name: 'plain', exposure: '' },
  ];
  const host = await startHost(t, [makeZotExt(tmpdir(), 'notes', { tools })]);
  const registered = Object.fromEntries(host.tools().map((x) => [x.name, [x.deferred, x.exposure ?? '-', x.replay]]));
  assert.deepEqual(registered, {
    notes_find: [true, 'deferred', 'never'], script_only: [true, 'codemode', 'never'], chat_only: [false, 'model-only', 'never'],
    loud: [false, 'direct', 'never'], legacy_hidden: [true, '-', 'never'], invoice_void: [false, '-', 'never'], invoice_send: [false, '-', 'reconcile'], plain: [false, '-', 'never'],
  });
  assert.deepEqual(host.get('notes')?.problems.map((p) => p.message), [
    'tool "notes_export" has unknown exposure "hidden", skipped',
    'tool "invoice_void" has unknown replay policy "sometimes", treated as never',
  ]);
  // Callable by name all along, hidden or not.
  assert.equal((await host.runToolCall('notes_find', { q: 'x' })).outcome, 'completed');
});

test('zot\'s examples: every frame an extension sends is read as ZOT.md says (accepted, or the diagnostic it names)', async (t) => {
  const { ZOT_EXAMPLES } = await import('../helpers.mjs');
  const sent = ZOT_EXAMPLES.filter((e) => e.dir === 'e2h' && !['hello', 'ready', 'tool_result', 'event_intercept_response', 'command_response', 'call_tool', 'call_tool_cancel'].includes(e.frame.type));
  const host = await startHost(t, [makeZotExt(tmpdir(), 'examples', { raw: sent.map((e) => e.frame) })]);
  const said = host.get('examples')?.problems.map((p) => p.message) ?? [];
  // Each diagnostic is one ZOT.md names in the note of the line that caused it.
  for (const m of said) assert.ok(sent.some((e) => e.note.includes(m.replace(/^"register_tool" frame: .*/, 'bad register_tool'))) || /register_tool/.test(m), `a diagnostic no example names: ${m}`);
  assert.ok(said.includes('tool "notes_export" has unknown exposure "hidden", skipped'));
  assert.ok(said.some((m) => m.startsWith('tool "invoice_void" has unknown replay policy "sometimes"')));
  assert.ok(said.includes('unknown frame type "error_report"'));
  const names = host.tools().map((x) => x.name);
  assert.ok(names.includes('rate_lookup') && names.includes('notes_find') && !names.includes('notes_export'));
});

test('tool_prompt from the palette (the host\'s own UI): the tool runs through the door, and its result goes with the prompt to the UI\'s model', async (t) => {
  const { RecordingUI } = await import('../helpers.mjs');
  const ext = makeZotExt(tmpdir(), 'rates', {
    tools: [RATE],
    handlers: { rate_lookup: { kind: 'reply', result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412' }] } } },
    commands: { commit: { kind: 'tool_prompt', prompt: 'and open a pull request', tool_name: 'rate_lookup', tool_args: { pair: 'CHF/EUR' } } },
    subscribe: { events: ['tool_result'] },
  });
  const ui = new RecordingUI();
  const host = await startHost(t, [ext], { ui });
  const o = await host.runCommand('commit', '');
  assert.equal(o.outcome, 'completed');
  await waitFor('the submit', () => ui.of('submit').length === 1);
  assert.deepEqual(ui.of('submit')[0]?.args.slice(1), ['Result of the tool rate_lookup (run for this prompt):\nCHF/EUR 1.0412\n\nand open a pull request']);
  await waitFor('its tool_result event', () => host.received('rates', 'event').some((f) => f.event === 'tool_result' && f.tool_name === 'rate_lookup'));
});
