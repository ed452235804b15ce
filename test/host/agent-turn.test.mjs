// The host's agent turn (src/host/turn/agentTurn.ts) over a scripted model
// port in plain Node, against real extensions: zot's order of events and
// intercepts without any VS Code module, the checks of a model's tool-call
// arguments, and what Stop learns from the request table about a call that
// was running (an answer after the cancel is seen as it arrives, no polling).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib, makeExt, ownFields, sleep, startHost, tmpdir, waitFor } from '../helpers.mjs';

/** @typedef {import('../../out/types/host/index.js').ModelPort} ModelPort */
/** @typedef {import('../../out/types/host/index.js').ModelCall} ModelCall */
/** @typedef {import('../../out/types/host/index.js').EndedCall} EndedCall */
/** @typedef {import('../../out/types/host/index.js').TurnOptions} TurnOptions */
/** @typedef {import('../../out/types/host/index.js').ToolOutcome} ToolOutcome */
/** @typedef {string | import('../../out/types/host/index.js').ModelStep | ModelCall | EndedCall} ViewArg What a TurnView method is given. */

/**
 * A port that answers each step from the script and records what joined the conversation.
 * @param {('throw' | { text?: string, calls?: [string, unknown][] })[]} script
 */
function scriptedPort(script) {
  let step = 0;
  /** @type {unknown[]} */
  const conversation = [];
  return {
    conversation,
    /** @type {ModelPort['step']} */
    async step() {
      const s = script[Math.min(step++, script.length - 1)];
      if (s === 'throw') throw new Error('the provider is down');
      return { text: s.text ?? '', calls: (s.calls ?? []).map(([name, input], i) => ({ id: `m${step}-${i}`, name, input })) };
    },
    /** @type {ModelPort['replied']} */
    replied(s) { conversation.push({ assistant: s.text, calls: s.calls.map((c) => c.name) }); },
    /** @type {ModelPort['results']} */
    results(ended) { conversation.push({ results: ended.map((e) => [e.call.name, e.outcome.outcome, 'late' in e.outcome && e.outcome.late === true, e.neverStarted === true]) }); },
    /** @type {NonNullable<ModelPort['system']>} */
    system(text) { conversation.push({ system: text }); },
  };
}

function recordingView() {
  /** @type {unknown[][]} */
  const seen = [];
  const view = new Proxy({}, { get: (_t, k) => (/** @type {ViewArg[]} */ ...args) => seen.push([k, ...args.map((a) => (a && typeof a === 'object' && 'call' in a ? `${a.call.name}:${a.outcome.outcome}` : a))]) });
  return { view, seen };
}

/**
 * @param {TurnOptions['token']} token
 * @param {Partial<TurnOptions>} [extra]
 * @returns {TurnOptions}
 */
const options = (token, extra = {}) => ({ prompt: 'hi', maxSteps: 5, token, lateWithinMs: 5000, ...extra });

test('order of a turn over the port: the same frames zot sends, with no VS Code in the process', async (t) => {
  const dir = makeExt(tmpdir(), 'rec', { tools: [{ name: 'echo' }], subscribe: { events: ['turn_start', 'tool_call', 'turn_end', 'assistant_message'], intercept: ['before_agent_start', 'turn_start', 'tool_call', 'assistant_message'] }, interceptReplies: { before_agent_start: { system_prompt: 'You are zot. Amounts are integer cents.' } } });
  const host = await startHost(t, [dir]);
  const port = scriptedPort([{ text: 'looking', calls: [['echo', { a: 1 }]] }, { text: 'done' }]);
  const { view, seen } = recordingView();
  // zot's before_agent_start is asked where the front end owns a system prompt, with it; its answer replaces the prompt.
  const startup = { system_prompt: 'You are zot.', session_id: 's1', cwd: '/srv/code', provider: 'test', model: 'm1' };
  const r = await host.runTurn(port, view, options(new lib.CancellationTokenSource().token, { startup }));
  assert.deepEqual(r, { stop: 'end_turn', steps: 2, stoppedInCall: false });
  await waitFor('the last turn_end', () => host.received('rec', 'event').filter((f) => f.event === 'turn_end').length === 2);
  const frames = host.received('rec').filter((f) => f.type !== 'hello_ack').map((f) => (f.type === 'event' ? `event ${f.event}` : f.type === 'event_intercept' ? `intercept ${f.event}` : `${f.type} ${/** @type {{ name?: string }} */ (f).name ?? ''}`.trim()));
  assert.deepEqual(frames, [
    'intercept before_agent_start', 'event turn_start', 'intercept turn_start',
    'intercept assistant_message', 'event assistant_message', 'event tool_call', 'event turn_end',
    'intercept tool_call', 'tool_call echo',
    'event turn_start', 'intercept turn_start', 'intercept assistant_message', 'event assistant_message', 'event turn_end',
  ]);
  assert.deepEqual(port.conversation, [{ system: 'You are zot. Amounts are integer cents.' }, { assistant: 'looking', calls: ['echo'] }, { results: [['echo', 'completed', false, false]] }, { assistant: 'done', calls: [] }]);
  assert.deepEqual(seen.map((s) => s[0]), ['started', 'text', 'stepReplied', 'callStarting', 'callEnded', 'text', 'stepReplied']);
  const [asked] = host.received('rec', 'event_intercept');
  assert.deepEqual({ ...asked, id: undefined, agent_run_id: typeof asked?.agent_run_id }, { type: 'event_intercept', id: undefined, event: 'before_agent_start', ...startup, agent_run_id: 'string' });
});

test('before_agent_start is never a refusal: a block keeps the prompt, as do an answer that is not a string and one over 1 MiB; each says why', async (t) => {
  const root = tmpdir();
  const blocker = makeExt(root, 'blocker', { subscribe: { intercept: ['before_agent_start'] }, interceptReplies: { before_agent_start: { block: true, reason: 'no' } } });
  const typo = makeExt(root, 'typo', { subscribe: { intercept: ['before_agent_start'] }, interceptReplies: { before_agent_start: { system_prompt: 42 } } });
  const huge = makeExt(root, 'huge', { subscribe: { intercept: ['before_agent_start'] }, interceptReplies: { before_agent_start: { fill: { system_prompt: 1024 * 1024 } } } });
  const last = makeExt(root, 'last', { subscribe: { intercept: ['before_agent_start'] }, interceptReplies: { before_agent_start: { system_prompt: '' } } });
  const host = await startHost(t, [blocker, typo, huge, last]);
  const port = scriptedPort([{ text: 'fine' }]);
  const r = await host.runTurn(port, recordingView().view, options(new lib.CancellationTokenSource().token, { startup: { system_prompt: 'base', cwd: '/p', provider: 'p', model: 'm' } }));
  assert.equal(r.stop, 'end_turn', 'the request went on');
  // Each unusable answer kept the prompt it was given; the last one's "" removes it (zot: no trimming, no merging).
  assert.deepEqual(port.conversation[0], { system: '' });
  const said = (/** @type {string} */ name) => host.get(name)?.problems.map((p) => p.message) ?? [];
  assert.deepEqual(said('blocker'), ['before_agent_start: extension returned a blocking response; startup hooks cannot block; keeping current system prompt']);
  assert.deepEqual(said('typo'), ['before_agent_start: system_prompt must be a string; keeping current system prompt']);
  assert.deepEqual(said('huge'), ['before_agent_start: system_prompt exceeds 1 MiB encoded limit; keeping current system prompt']);
  // Without a system prompt of its own (MCP, hooks, this turn without startup) nobody is asked.
  await host.runTurn(scriptedPort([{ text: 'again' }]), recordingView().view, options(new lib.CancellationTokenSource().token));
  assert.equal(host.received('blocker', 'event_intercept').length, 1);
});

test('Stop while a call runs: an extension that finishes anyway is known as soon as its answer comes, and the calls after it never start', async (t) => {
  const dir = makeExt(tmpdir(), 'late', { caps: ['tool_cancel'], tools: [{ name: 'slow', behaviour: 'late', delayMs: 300 }, { name: 'echo' }] });
  const host = await startHost(t, [dir]);
  const source = new lib.CancellationTokenSource();
  const port = scriptedPort([{ calls: [['slow', {}], ['echo', { n: 2 }]] }]);
  const { view } = recordingView();
  setTimeout(() => source.cancel(), 100);
  const began = Date.now();
  const r = await host.runTurn(port, view, options(source.token));
  const took = Date.now() - began;
  assert.deepEqual(r, { stop: 'canceled', steps: 1, stoppedInCall: true });
  assert.deepEqual(port.conversation.at(-1), { results: [['slow', 'canceled', true, false], ['echo', 'not_run', false, true]] });
  assert.ok(took < 2000, `known when the late answer came (${took} ms), not at the end of the 5 s wait`);
  await sleep(100);
  assert.equal(host.received('late', 'tool_call').length, 1, 'echo never ran');
});

test('Stop while a call runs: an extension that honours the cancel is not late, and the wait is bounded', async (t) => {
  const dir = makeExt(tmpdir(), 'honours', { caps: ['tool_cancel'], tools: [{ name: 'work', behaviour: 'cancellable', workMs: 10_000 }] });
  const host = await startHost(t, [dir]);
  const source = new lib.CancellationTokenSource();
  const port = scriptedPort([{ calls: [['work', {}]] }]);
  setTimeout(() => source.cancel(), 100);
  const began = Date.now();
  await host.runTurn(port, recordingView().view, options(source.token, { lateWithinMs: 400 }));
  assert.ok(Date.now() - began >= 400, 'it waited for a late answer');
  assert.deepEqual(port.conversation.at(-1), { results: [['work', 'canceled', false, false]] });
  await waitFor('the cancel reached it', () => host.stderrOf('honours').some((l) => l.startsWith('CANCELLED ')));
});

test('a model\'s call with arguments that are not an object, or nest too deep, is refused before it is sent', async (t) => {
  const dir = makeExt(tmpdir(), 'args', { tools: [{ name: 'echo' }] });
  // A guard: it hears of a call only once its args are checked, neither in the tool_call event nor in its intercept before;
  // every call's ending is a tool_result event, the refused ones as never run (their args as text when not an object).
  const guard = makeExt(tmpdir(), 'argsguard', { subscribe: { events: ['tool_call', 'tool_result'], intercept: ['tool_call'] } });
  const host = await startHost(t, [dir, guard]);
  let deep = {};
  for (let i = 0; i < 70; i++) deep = { d: deep };
  const port = scriptedPort([{ calls: [['echo', [1, 2]], ['echo', 'text'], ['echo', null], ['echo', deep], ['echo', { ok: true }]] }, { text: 'done' }]);
  /** @type {ToolOutcome[]} */
  const ended = [];
  await host.runTurn(port, { callEnded: (e) => ended.push(e.outcome) }, options(new lib.CancellationTokenSource().token));
  assert.deepEqual(ended.map((o) => o.outcome), ['not_run', 'not_run', 'completed', 'not_run', 'completed']);
  assert.deepEqual([0, 1, 3].map((i) => ended[i].message), [
    'the arguments must be a JSON object, not an array; the call was not sent',
    'the arguments must be a JSON object, not a string; the call was not sent',
    'the arguments are nested deeper than 63 levels; the call was not sent',
  ]);
  // Its stderr (where it logs what it read) may lag behind its answer on stdout.
  await waitFor('both calls logged', () => host.received('args', 'tool_call').length >= 2);
  await sleep(100);
  assert.deepEqual(host.received('args', 'tool_call').map((f) => f.args), [{}, { ok: true }], 'null is missing arguments, sent as {} as zot does; the refused ones never reached the extension');
  const heard = () => host.received('argsguard').filter((f) => f.type === 'event' || f.type === 'event_intercept').map((f) => `${f.type === 'event' ? 'event' : 'intercept'} ${f.event} ${JSON.stringify(f.tool_args ?? null)}${f.event === 'tool_result' ? ` ${f.status}/${f.executed}` : ''}`);
  await waitFor('the guard heard every call end', () => heard().filter((h) => h.startsWith('event tool_result')).length === 5);
  assert.deepEqual(heard(), [
    'event tool_call {}', 'event tool_call {"ok":true}',
    'event tool_result null failed/false', 'event tool_result null failed/false',
    'intercept tool_call {}', 'event tool_result {} completed/true',
    'event tool_result null failed/false',
    'intercept tool_call {"ok":true}', 'event tool_result {"ok":true} completed/true',
  ]);
  const raw = host.received('argsguard', 'event').filter((f) => f.event === 'tool_result').map((f) => f.tool_args_raw);
  assert.deepEqual(raw.slice(0, 2), ['[1,2]', '"text"']);
  assert.match(String(raw[3]), /cut: nested deeper/);
});

test('the one door for a tool call, whoever calls: arguments checked before the tool_call event and the intercepts', async (t) => {
  const dir = makeExt(tmpdir(), 'door', { tools: [{ name: 'echo' }] });
  const guard = makeExt(tmpdir(), 'doorguard', { subscribe: { events: ['tool_call', 'tool_result'], intercept: ['tool_call'] } });
  const host = await startHost(t, [dir, guard]);
  const refused = await host.runToolCall('echo', ['not', 'an', 'object']);
  assert.deepEqual([refused.outcome, refused.extension, refused.message], ['not_run', 'door', 'the arguments must be a JSON object, not an array; the call was not sent']);
  const ran = await host.runToolCall('echo', { n: 1 });
  assert.equal(ran.outcome, 'completed');
  await waitFor('the guard heard both calls end', () => host.received('doorguard', 'event').filter((f) => f.event === 'tool_result').length === 2);
  const seen = host.received('doorguard').filter((f) => f.type === 'event' || f.type === 'event_intercept');
  assert.deepEqual(seen.map((f) => [f.type, f.event, f.tool_args ?? f.tool_args_raw, f.status]), [
    ['event', 'tool_result', '["not","an","object"]', 'failed'],
    ['event', 'tool_call', { n: 1 }, undefined], ['event_intercept', 'tool_call', { n: 1 }, undefined], ['event', 'tool_result', { n: 1 }, 'completed'],
  ], 'the refused call reached no guard: only its ending, as never run');
  assert.deepEqual(host.received('door', 'tool_call').map((f) => f.args), [{ n: 1 }]);
});

test('a model that fails ends the turn with turn_end "error" and the described message', async (t) => {
  const dir = makeExt(tmpdir(), 'rec2', { subscribe: { events: ['turn_end'] } });
  const host = await startHost(t, [dir]);
  /** @type {string[]} */
  const failed = [];
  const r = await host.runTurn(scriptedPort(['throw']), { modelFailed: (m) => failed.push(m) }, options(new lib.CancellationTokenSource().token, { describeError: (e) => `model: ${/** @type {Error} */ (e).message}` }));
  assert.equal(r.stop, 'error');
  assert.deepEqual(failed, ['model: the provider is down']);
  await waitFor('turn_end', () => host.received('rec2', 'event').length === 1);
  assert.deepEqual(ownFields(host.received('rec2', 'event')[0]), { type: 'event', event: 'turn_end', stop: 'error', error: 'model: the provider is down' });
});

test('Stop while the model replies: a reply of text keeps what was written (cutShort), one with tool calls is dropped whole; turn_end says aborted', async (t) => {
  const dir = makeExt(tmpdir(), 'ends', { subscribe: { events: ['turn_end', 'assistant_message'] } });
  const host = await startHost(t, [dir]);
  for (const [what, step, cut] of /** @type {[string, { text: string, calls: ModelCall[] }, unknown[][]][]} */ ([
    ['text only', { text: 'the first half of an answ', calls: [] }, [['cutShort', 'the first half of an answ']]],
    ['text and calls', { text: 'I will look', calls: [{ id: 'c1', name: 'echo', input: {} }] }, []],
  ])) {
    const source = new lib.CancellationTokenSource();
    // As a provider's stream does: the token is cancelled while the reply comes, and what came is returned.
    /** @type {ModelPort & { conversation: unknown[] }} */
    const port = { conversation: [], async step() { source.cancel(); return step; }, replied(s) { this.conversation.push(s); }, results(e) { this.conversation.push(e); } };
    const { view, seen } = recordingView();
    const before = host.received('ends', 'event').length;
    const r = await host.runTurn(port, view, options(source.token));
    assert.deepEqual(r, { stop: 'canceled', steps: 1, stoppedInCall: false }, what);
    assert.deepEqual(seen.filter((s) => s[0] === 'cutShort'), cut, what);
    assert.deepEqual(port.conversation, [], `${what}: nothing joins the conversation`);
    const ends = await waitFor('its turn_end', () => host.received('ends', 'event').slice(before).filter((f) => f.event === 'turn_end').at(0));
    assert.deepEqual([ends.stop, ends.error], ['aborted', 'context canceled'], what);
    assert.ok(!host.received('ends', 'event').slice(before).some((f) => f.event === 'assistant_message'), `${what}: no assistant_message for a reply cut short`);
  }
});

test('an assistant_message interceptor\'s rewrite is what is shown and what the event carries; the model keeps its own words', async (t) => {
  const dir = makeExt(tmpdir(), 'redactor', { subscribe: { events: ['assistant_message'], intercept: ['assistant_message'] }, interceptReplies: { assistant_message: { replace_text: '[redacted]' } } });
  const host = await startHost(t, [dir]);
  const port = scriptedPort([{ text: 'the secret is 42' }]);
  const { view, seen } = recordingView();
  await host.runTurn(port, view, options(new lib.CancellationTokenSource().token));
  assert.deepEqual(seen.filter((s) => s[0] === 'text'), [['text', '[redacted]']]);
  assert.deepEqual(port.conversation, [{ assistant: 'the secret is 42', calls: [] }]);
  const event = await waitFor('the assistant_message event', () => host.received('redactor', 'event').find((f) => f.event === 'assistant_message'));
  assert.equal(event.text, '[redacted]');
});
