// @zot's model loop (src/vscode/chat/modelLoop.ts, bundled from src) run
// against a real host and a real extension that logs every frame it reads,
// with a scripted model in place of VS Code's: what the extension sees of a
// request, step by step, is what zot's agent loop sends (internal/core/agent.go).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bundleSources, lib, makeExt, ROOT, sleep, startHost, tmpdir, waitFor, makeZotExt } from '../helpers.mjs';

/** @typedef {import('../helpers.mjs').TestHost} TestHost */
/** @typedef {import('../../src/vscode/chat/participant.js').ZotChatResult} ZotChatResult */
/**
 * The stand-in of the VS Code API (test/vscode-chat-api.cjs): VS Code's own types where the chat gets them,
 * and the participants the chat registered, each with the handler it gave.
 * @typedef {typeof import('vscode') & {
 *   participants: Map<string, { handler: (...args: Parameters<import('vscode').ChatRequestHandler>) => Promise<ZotChatResult> }>,
 * }} VscodeStandIn
 */
/**
 * One answer of a scripted model: its text and the calls it asks for, a failure, or nothing until cancelled.
 * @typedef {{ text?: string, calls?: [string, object][] } | 'throw' | 'hang'} Step
 */

const require = createRequire(import.meta.url);
/** @type {string} */
let scratch;
/** @type {import('../bundled').Bundled<'vscode/chat', 'modelLoop'>['modelLoop']} */
let loop;
/** @type {import('../bundled').Bundled<'vscode/chat', 'participant'>['participant']} */
let participant;
/** @type {import('../bundled').Bundled<'vscode/chat', 'systemPrompt'>['systemPrompt']['SystemPrompts']} */
let SystemPrompts;
/** @type {VscodeStandIn} */
let vscode;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-chat-loop-'));
  // The bundle's `require('vscode')` finds the API stand-in as a package beside it.
  mkdirSync(path.join(scratch, 'node_modules', 'vscode'), { recursive: true });
  writeFileSync(path.join(scratch, 'node_modules', 'vscode', 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'test', 'vscode-chat-api.cjs'))});\n`);
  const bundled = await bundleSources(scratch, 'vscode/chat', ['modelLoop', 'participant', 'systemPrompt'], { external: ['vscode'] });
  ({ modelLoop: loop, participant } = bundled);
  SystemPrompts = bundled.systemPrompt.SystemPrompts;
  vscode = require(path.join(scratch, 'node_modules', 'vscode'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A model that answers each step from the script: `{ text, calls: [[name, args]] }`,
 * `'throw'`, or `'hang'` (streams nothing until the request is cancelled).
 * @param {Step[]} script
 * @returns {import('vscode').LanguageModelChat}
 */
function scriptedModel(script) {
  let step = 0;
  // Partial: what the model loop uses of a model; its response has a stream and no text.
  return /** @type {import('vscode').LanguageModelChat} */ (/** @type {unknown} */ ({
    vendor: 'test', id: 'scripted', capabilities: {},
    /**
     * @param {import('vscode').LanguageModelChatMessage[]} _messages
     * @param {import('vscode').LanguageModelChatRequestOptions} _opts
     * @param {import('vscode').CancellationToken} token
     */
    sendRequest: async (_messages, _opts, token) => {
      const s = script[Math.min(step++, script.length - 1)];
      if (s === 'throw') throw new Error('the provider is down');
      return {
        stream: (async function* () {
          if (s === 'hang') {
            while (!token.isCancellationRequested) await sleep(10);
            return;
          }
          if (s.text) yield new vscode.LanguageModelTextPart(s.text);
          for (const [i, [name, input]] of (s.calls ?? []).entries()) yield new vscode.LanguageModelToolCallPart(`call-${step}-${i}`, name, input);
        })(),
      };
    },
  }));
}

/**
 * One @zot request through the real loop; `onStart(source)` may cancel it.
 * @param {TestHost} host
 * @param {Step[]} script
 * @param {{ maxSteps?: number, onStart?: (source: InstanceType<typeof lib.CancellationTokenSource>) => unknown }} [options]
 */
async function request(host, script, { maxSteps = 25, onStart } = {}) {
  /** @type {(string | import('vscode').MarkdownString)[]} */
  const shown = [];
  const cancel = new lib.CancellationTokenSource();
  onStart?.(cancel);
  const { metadata } = await loop.runModelLoop(
    { host, maxSteps, recentTools: [], log: () => undefined },
    // Partial request and stream: what the loop reads of a request, and the two ways it answers.
    /** @type {import('vscode').ChatRequest} */ ({ model: scriptedModel(script) }),
    { history: [] },
    'do the thing',
    /** @type {import('vscode').ChatResponseStream} */ (/** @type {unknown} */ ({ markdown: (/** @type {string | import('vscode').MarkdownString} */ s) => shown.push(s), progress: () => undefined })),
    cancel.token,
  );
  return { metadata, shown: shown.join('') };
}

const EVENTS = ['turn_start', 'turn_end', 'assistant_message', 'tool_call'];
const INTERCEPTS = ['before_agent_start', 'turn_start', 'assistant_message', 'tool_call'];

/**
 * The recorder: subscribed to every event and intercept, owner of the tools.
 * @param {string} root
 * @param {Record<string, unknown>} [cfg]
 */
function recorder(root, cfg = {}) {
  return makeExt(root, 'rec', {
    subscribe: { events: EVENTS, intercept: INTERCEPTS },
    tools: [{ name: 'echo' }, { name: 'hang', behaviour: 'hang' }],
    ...cfg,
  });
}

/**
 * What the recorder read, one short line a frame: `event turn_end {"stop":"end"}`, `intercept turn_start`, `call echo {...}`.
 * @param {TestHost} host
 */
function seen(host, from = 0) {
  return host.received('rec').slice(from).flatMap((f) => {
    if (f.type === 'event') {
      // The fields every event carries are checked in test/host/events.test.mjs; here each event's own.
      const { type: _t, event, session_id: _s, cwd: _c, sequence: _n, ...rest } = f;
      return [`event ${event}${Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : ''}`];
    }
    if (f.type === 'event_intercept') return [`intercept ${f.event}`];
    if (f.type === 'tool_call') return [`call ${f.name} ${JSON.stringify(f.args)}`];
    return [];
  });
}

/**
 * Waits until the recorder's log has stopped growing, so "nothing more came" is a fact, not a race.
 * @param {TestHost} host
 */
async function settled(host, from = 0) {
  let last = -1;
  let quiet = 0;
  // Two quiet spells in a row: under load a logged frame can lag the one before it.
  while (quiet < 2) {
    const now = host.received('rec').length;
    quiet = now === last ? quiet + 1 : 0;
    last = now;
    await sleep(300);
  }
  return seen(host, from);
}

test('order in a step: turn_start event, its intercept, the model, assistant_message intercept and event, a tool_call event per call, turn_end, then each call', async (t) => {
  const host = await startHost(t, [recorder(tmpdir())]);
  const r = await request(host, [
    { text: 'looking', calls: [['echo', { a: 1 }], ['echo', { a: 2 }]] },
    { calls: [['echo', { a: 3 }]] },
    { text: 'done' },
  ]);
  assert.equal(r.metadata.stop, 'end_turn');
  const lines = await settled(host);
  const ids = (host.received('rec', 'event').filter((f) => f.event === 'tool_call')).map((f) => f.tool_id);
  assert.deepEqual(lines.map((l) => l.replace(/"tool_id":"[^"]+",?/, '')), [
    'intercept before_agent_start',
    'event turn_start {"step":1}', 'intercept turn_start',
    'intercept assistant_message', 'event assistant_message {"text":"looking"}',
    'event tool_call {"tool_name":"echo","tool_args":{"a":1}}', 'event tool_call {"tool_name":"echo","tool_args":{"a":2}}',
    'event turn_end {"stop":"tool_use"}',
    'intercept tool_call', 'call echo {"a":1}', 'intercept tool_call', 'call echo {"a":2}',
    // A message of tool calls only: the event without text.
    'event turn_start {"step":2}', 'intercept turn_start',
    'event assistant_message',
    'event tool_call {"tool_name":"echo","tool_args":{"a":3}}',
    'event turn_end {"stop":"tool_use"}',
    'intercept tool_call', 'call echo {"a":3}',
    'event turn_start {"step":3}', 'intercept turn_start',
    'intercept assistant_message', 'event assistant_message {"text":"done"}',
    'event turn_end {"stop":"end"}',
  ]);
  assert.equal(new Set(ids).size, 3, 'each call its own tool_id');
});

test('a model that fails: turn_end with stop "error" and the message, then nothing', async (t) => {
  const host = await startHost(t, [recorder(tmpdir())]);
  const r = await request(host, ['throw']);
  assert.equal(r.metadata.stop, 'error');
  assert.deepEqual((await settled(host)).slice(1), [
    'event turn_start {"step":1}', 'intercept turn_start',
    'event turn_end {"stop":"error","error":"The language model failed: the provider is down"}',
  ]);
});

test('a blocked turn_start: its event has gone out, then turn_end with stop "error" and the reason; the model is not asked', async (t) => {
  const host = await startHost(t, [recorder(tmpdir(), { interceptReplies: { turn_start: { block: true, reason: 'not now' } } })]);
  const r = await request(host, [{ text: 'never' }]);
  assert.equal(r.metadata.stop, 'blocked');
  assert.equal(r.metadata.steps, 1);
  assert.doesNotMatch(r.shown, /never/, 'the model was not asked');
  assert.deepEqual((await settled(host)).slice(1), ['event turn_start {"step":1}', 'intercept turn_start', 'event turn_end {"stop":"error","error":"not now"}']);
  assert.match(r.shown, /Turn blocked by the zot extension `rec`:\*\* not now/);

  // Without a reason: "blocked by <extension>".
  const quiet = await startHost(t, [recorder(tmpdir(), { interceptReplies: { turn_start: { block: true } } })]);
  await request(quiet, [{ text: 'never' }]);
  assert.equal((await settled(quiet)).at(-1), 'event turn_end {"stop":"error","error":"blocked by rec"}');
});

test('Stop while the model replies: turn_end with stop "aborted" and "context canceled"; Stop while tools run: nothing more', async (t) => {
  const host = await startHost(t, [recorder(tmpdir(), { caps: ['tools', 'tool_cancel'] })]);
  const replying = await request(host, ['hang'], { onStart: (c) => setTimeout(() => c.cancel(), 300) });
  assert.equal(replying.metadata.stop, 'canceled');
  assert.deepEqual((await settled(host)).slice(1), ['event turn_start {"step":1}', 'intercept turn_start', 'event turn_end {"stop":"aborted","error":"context canceled"}']);

  const mark = host.received('rec').length;
  const running = request(host, [{ calls: [['hang', {}]] }, { text: 'never asked' }], {
    onStart: (c) => waitFor('the call delivered', () => host.received('rec', 'tool_call').some((f) => f.name === 'hang')).then(() => c.cancel()),
  });
  assert.equal((await running).metadata.stop, 'canceled');
  const lines = (await settled(host, mark)).map((l) => l.replace(/"tool_id":"[^"]+",?/, ''));
  // After the call only its tool_cancel (not in these lines): no turn_end, no next step.
  assert.deepEqual(lines.slice(-3), ['event turn_end {"stop":"tool_use"}', 'intercept tool_call', 'call hang {}']);
  assert.equal(lines.filter((l) => l.startsWith('event turn_')).length, 2, 'one step: its turn_start and turn_end');
  assert.equal(host.received('rec', 'tool_cancel').length, 1, 'the extension was told to stop');
});

test('the step limit: the last step\'s calls run after its turn_end, and no step follows', async (t) => {
  const host = await startHost(t, [recorder(tmpdir())]);
  const r = await request(host, [{ calls: [['echo', { n: 1 }]] }], { maxSteps: 2 });
  assert.equal(r.metadata.stop, 'max_steps');
  assert.equal(r.metadata.steps, 2);
  const lines = (await settled(host)).map((l) => l.replace(/"tool_id":"[^"]+",?/, ''));
  assert.equal(lines.filter((l) => l.startsWith('event turn_start')).length, 2);
  assert.deepEqual(lines.slice(-3), ['event turn_end {"stop":"tool_use"}', 'intercept tool_call', 'call echo {"n":1}']);
  assert.match(r.shown, /Stopped after 2 steps \(the `zot\.chat\.maxSteps` setting\)/);
  const settings = /** @type {{ contributes: { configuration: { properties: Record<string, { default: unknown }> } } }} */ (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))).contributes.configuration.properties;
  assert.equal(settings['zot.chat.maxSteps'].default, 25, 'the limit a chat request has unless set');
});

test('a blocked assistant_message sends no event, and the chat says something was hidden', async (t) => {
  const host = await startHost(t, [recorder(tmpdir(), { interceptReplies: { assistant_message: { block: true, reason: 'secret' } } })]);
  const r = await request(host, [{ text: 'the secret' }]);
  const lines = await settled(host);
  assert.deepEqual(lines.slice(1), ['event turn_start {"step":1}', 'intercept turn_start', 'intercept assistant_message', 'event turn_end {"stop":"end"}']);
  assert.doesNotMatch(r.shown, /the secret/);
  assert.match(r.shown, /A message was hidden by the zot extension `rec`: secret/);
});

test('before_agent_start: asked with @zot\'s system prompt before the first step, once per session; its answer is what the model reads first; a block refuses nothing', async (t) => {
  const host = await startHost(t, [recorder(tmpdir(), { interceptReplies: { before_agent_start: { system_prompt: 'Amounts are integer cents.' } } })]);
  const prompts = new SystemPrompts();
  /** @type {string[]} */
  const first = [];
  const model = scriptedModel([{ calls: [['echo', {}]] }, { text: 'done' }]);
  const send = model.sendRequest;
  model.sendRequest = async (messages, opts, token) => {
    first.push(messages[0]?.content.map((p) => /** @type {{ value?: string }} */ (p).value).join('') ?? '');
    return send(messages, opts, token);
  };
  const chat = (/** @type {string} */ prompt) => loop.runModelLoop({ host, maxSteps: 5, recentTools: [], log: () => undefined, systemPrompts: prompts, sessionId: 'c1' }, /** @type {import('vscode').ChatRequest} */ ({ model }), { history: [] }, prompt, /** @type {import('vscode').ChatResponseStream} */ (/** @type {unknown} */ ({ markdown: () => undefined, progress: () => undefined })), new lib.CancellationTokenSource().token);
  await chat('do the thing');
  const asked = host.received('rec', 'event_intercept').filter((f) => f.event === 'before_agent_start');
  assert.equal(asked.length, 1);
  // zot's fields: the whole prompt (here the running extensions' standing context, none), the run, the folder and the model.
  assert.deepEqual(Object.keys(asked[0]).sort(), ['agent_run_id', 'cwd', 'event', 'id', 'model', 'provider', 'system_prompt', 'type']);
  assert.deepEqual([asked[0].system_prompt, asked[0].provider, asked[0].model], ['', 'test', 'scripted']);
  assert.equal((await settled(host))[0], 'intercept before_agent_start');
  assert.deepEqual(first, ['Amounts are integer cents.', 'Amounts are integer cents.'], 'each step of the request leads with the replacement');
  // The session's next request uses what it settled on without asking; a restart of the extensions asks again.
  await chat('and again');
  assert.equal(host.received('rec', 'event_intercept').filter((f) => f.event === 'before_agent_start').length, 1);
  assert.equal(first.at(-1), 'Amounts are integer cents.');
  await host.restartExtension('rec');
  await chat('after a restart');
  await waitFor('asked again', () => host.received('rec', 'event_intercept').filter((f) => f.event === 'before_agent_start').length === 2);

  const blocking = await startHost(t, [recorder(tmpdir(), { interceptReplies: { before_agent_start: { block: true, reason: 'no agents today' } } })]);
  const r = await request(blocking, [{ text: 'answered anyway' }]);
  assert.equal(r.metadata.stop, 'end_turn', 'zot never lets this hook refuse');
  assert.match(r.shown, /answered anyway/);
  assert.deepEqual(blocking.get('rec')?.problems.map((p) => p.message), ['before_agent_start: extension returned a blocking response; startup hooks cannot block; keeping current system prompt']);
});

test('a blocked tool call: the model reads the reason and which extension blocked it; the tool never runs', async (t) => {
  const host = await startHost(t, [recorder(tmpdir(), { interceptReplies: { tool_call: { block: true, reason: 'not that file' } } })]);
  /** @type {string | undefined} */
  let read;
  const model = scriptedModel([{ calls: [['echo', { f: 1 }]] }, { text: 'ok' }]);
  const send = model.sendRequest;
  model.sendRequest = async (messages, opts, token) => {
    const results = messages.flatMap((m) => m.content).filter((p) => p instanceof vscode.LanguageModelToolResultPart);
    if (results.length) read = results[0].content.map((p) => /** @type {{ value?: string }} */ (p).value).join('\n');
    return send(messages, opts, token);
  };
  const cancel = new lib.CancellationTokenSource();
  await loop.runModelLoop({ host, maxSteps: 5, recentTools: [], log: () => undefined }, /** @type {import('vscode').ChatRequest} */ ({ model }), { history: [] }, 'go', /** @type {import('vscode').ChatResponseStream} */ (/** @type {unknown} */ ({ markdown: () => undefined, progress: () => undefined })), cancel.token);
  assert.ok(read, 'the model read a tool result');
  assert.match(read, /not that file/);
  assert.match(read, /rec/);
  assert.equal(host.received('rec', 'tool_call').length, 0);
});

test('hello_ack in @zot names the request\'s model, which VS Code picks per request', async (t) => {
  const host = await startHost(t, [recorder(tmpdir())]);
  await request(host, [{ text: 'hi' }]);
  // The model applies to extensions that start from now on, as zot's is fixed when an extension starts.
  await host.restartExtension('rec');
  const ack = await waitFor('the new process\'s hello_ack', () => host.received('rec', 'hello_ack')[1]);
  assert.equal(ack.provider, 'test');
  assert.equal(ack.model, 'scripted');
});

test('session_start in @zot: once per chat, at its first request, before the first step; not again for a later request of that chat', async (t) => {
  const host = await startHost(t, [makeExt(tmpdir(), 'rec', { subscribe: { events: ['session_start', 'turn_start'] } })]);
  // Every bundle records each reply for the UI trace, the shipped one too: the path the end-to-end suites read is the product's.
  /** @type {import('../../src/vscode/ui/trace.js').TraceEvent[]} */
  const replies = [];
  participant.registerChatParticipant(
    // Partial: the participant reads the extension's folder and keeps what it registers; the replies it only records to.
    /** @type {import('vscode').ExtensionContext} */ (/** @type {unknown} */ ({ extensionUri: { path: '/ext' }, subscriptions: [] })),
    { host: () => host, reload: () => host.reload(), maxSteps: () => 5, replies: /** @type {import('../../src/vscode/ui/trace.js').UiTrace} */ (/** @type {unknown} */ ({ record: (/** @type {string} */ kind, /** @type {object} */ data) => replies.push({ kind, ...data }) })) },
  );
  const registered = vscode.participants.get(participant.PARTICIPANT_ID);
  assert.ok(registered, 'the chat registered its participant');
  const handler = registered.handler;
  /** @param {import('vscode').ChatContext['history']} history */
  const ask = (history) => handler(/** @type {import('vscode').ChatRequest} */ ({ prompt: 'hi', model: scriptedModel([{ text: 'hello' }]) }), { history }, /** @type {import('vscode').ChatResponseStream} */ (/** @type {unknown} */ ({ markdown: () => undefined, progress: () => undefined })), new lib.CancellationTokenSource().token);
  await ask([]);
  // Partial turns: what the chat reads of a history (that it has one).
  await ask(/** @type {import('vscode').ChatContext['history']} */ (/** @type {unknown} */ ([{ prompt: 'hi' }, { response: [] }])));
  await ask([]);
  const order = (await waitFor('three requests', () => {
    const got = host.received('rec', 'event').map((f) => f.event);
    return got.filter((e) => e === 'turn_start').length === 3 && got;
  }));
  assert.deepEqual(order, ['session_start', 'turn_start', 'turn_start', 'session_start', 'turn_start'], 'a new chat (no history) is a new session');
  assert.deepEqual(replies.map((r) => [r.kind, r.prompt, r.stop, r.markdown]), Array(3).fill(['chat-reply', 'hi', 'end_turn', 'hello']));
});

/**
 * One @zot request with the model's messages recorded as the model received them, each as `role: text` parts.
 * @param {TestHost} host
 * @param {Step[]} script
 * @param {Partial<import('../../src/vscode/chat/modelLoop.js').LoopDeps>} [deps]
 * @param {import('vscode').ChatContext} [chatContext]
 */
async function recorded(host, script, deps = {}, chatContext = { history: [] }) {
  const model = scriptedModel(script);
  const send = model.sendRequest;
  /** @type {{ messages: string[], tools: string[] }[]} */
  const requests = [];
  model.sendRequest = async (messages, opts = {}, token) => {
    requests.push({
      messages: messages.map((m) => m.content.map((p) => {
        if (p instanceof vscode.LanguageModelTextPart) return `text ${p.value}`;
        if (p instanceof vscode.LanguageModelToolCallPart) return `call ${p.name} ${JSON.stringify(p.input)}`;
        if (p instanceof vscode.LanguageModelToolResultPart) return `result ${p.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : c instanceof vscode.LanguageModelDataPart ? `data ${c.mimeType} ${new TextDecoder().decode(c.data)}` : '?')).join(' | ')}`;
        return '?';
      }).join(' + ')),
      tools: (opts.tools ?? []).map((x) => x.name),
    });
    return send(messages, opts, token);
  };
  /** @type {(string | import('vscode').MarkdownString)[]} */
  const shown = [];
  const { metadata } = await loop.runModelLoop({ host, maxSteps: 5, recentTools: [], log: () => undefined, ...deps }, /** @type {import('vscode').ChatRequest} */ ({ model }), chatContext, 'go on', /** @type {import('vscode').ChatResponseStream} */ (/** @type {unknown} */ ({ markdown: (/** @type {string | import('vscode').MarkdownString} */ s) => shown.push(s), progress: () => undefined })), new lib.CancellationTokenSource().token);
  return { metadata, requests, shown };
}

test('zot\'s tool_prompt in @zot: the tool runs through the door after the prompt, and the model\'s first request holds the prompt, the call and its result', async (t) => {
  const rates = makeZotExt(tmpdir(), 'rates', {
    tools: [{ name: 'rate_lookup', description: 'Exchange rate.', schema: { type: 'object' } }],
    handlers: { rate_lookup: { kind: 'reply', result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412' }] } } },
    subscribe: { events: ['user_prompt_submit', 'tool_call', 'permission_decision', 'tool_result', 'turn_start'] },
  });
  const host = await startHost(t, [rates]);
  const { requests, metadata } = await recorded(host, [{ text: 'Opened.' }], { prelude: { tool: 'rate_lookup', args: { pair: 'CHF/EUR' } } });
  assert.deepEqual(requests[0]?.messages, ['text go on', 'call rate_lookup {"pair":"CHF/EUR"}', 'result CHF/EUR 1.0412']);
  assert.ok(requests[0]?.tools.includes('rate_lookup'), 'the model is offered the tool it sees called');
  // zot's order: the prompt accepted, the call's events, then the model's first step.
  const order = await waitFor('the events', () => { const e = host.received('rates', 'event').map((f) => f.event); return e.length === 5 && e; });
  assert.deepEqual(order, ['user_prompt_submit', 'tool_call', 'permission_decision', 'tool_result', 'turn_start']);
  // The pair is kept for the next turn's history, as a round of its own.
  assert.deepEqual(metadata.rounds?.[0]?.calls.map((c) => [c.tool, c.end]), [['rate_lookup', 'completed']]);
});

test('zot\'s deferred tools in @zot: not offered until a result activates them, then offered from the next step and in the chat\'s later requests', async (t) => {
  const notes = makeZotExt(tmpdir(), 'notes', {
    tools: [{ name: 'notes_find', description: 'Search notes.', schema: { type: 'object' }, exposure: 'deferred' }, { name: 'notes_enable', description: 'Turns the notes tools on.', schema: { type: 'object' } }],
    handlers: { notes_enable: { kind: 'reply', result: { content: [{ type: 'text', text: 'Notes tools enabled.' }], activate_tools: ['notes_find', 'unknown_tool'] } } },
  });
  const host = await startHost(t, [notes]);
  const first = await recorded(host, [{ calls: [['notes_enable', {}]] }, { text: 'done' }]);
  assert.deepEqual(first.requests.map((r) => r.tools.sort()), [['notes_enable'], ['notes_enable', 'notes_find']]);
  assert.deepEqual(first.metadata.activated, ['notes_find']);
  // The chat's next request: its history names the activation.
  // The stand-in's turn classes are plain (VS Code's constructors are private).
  const Reply = /** @type {new () => import('vscode').ChatResponseTurn} */ (/** @type {unknown} */ (vscode.ChatResponseTurn));
  const response = Object.assign(new Reply(), { result: { metadata: first.metadata }, response: [] });
  const later = await recorded(host, [{ text: 'ok' }], {}, { history: [response] });
  assert.deepEqual(later.requests[0]?.tools.sort(), ['notes_enable', 'notes_find']);
  // Another chat starts without it.
  assert.deepEqual((await recorded(host, [{ text: 'ok' }])).requests[0]?.tools, ['notes_enable']);
});

test('structured_content reaches @zot\'s model as a JSON data part after the text; a markdown result is shown, untrusted, and the model reads the same text', async (t) => {
  const ext = makeZotExt(tmpdir(), 'ledger', {
    tools: [{ name: 'rate_lookup', description: 'Exchange rate.', schema: { type: 'object' } }, { name: 'balances', description: 'A table.', schema: { type: 'object' } }],
    handlers: {
      rate_lookup: { kind: 'reply', result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412' }], structured_content: { pair: 'CHF/EUR', rate: 1.0412 } } },
      balances: { kind: 'reply', result: { content: [{ type: 'text', text: '| account | balance |\n|---|---|\n| 4020 | [x](command:workbench.action.quit) |', format: 'markdown' }] } },
    },
  });
  const host = await startHost(t, [ext]);
  const { requests, shown } = await recorded(host, [{ calls: [['rate_lookup', {}], ['balances', {}]] }, { text: 'done' }]);
  assert.deepEqual(requests[1]?.messages.at(-1), 'result CHF/EUR 1.0412 | data application/json {"pair":"CHF/EUR","rate":1.0412} + result | account | balance |\n|---|---|\n| 4020 | [x](command:workbench.action.quit) |');
  const md = shown.find((s) => typeof s !== 'string');
  assert.ok(md && typeof md !== 'string');
  assert.match(md.value, /\| 4020 \|/);
  assert.equal(md.isTrusted, false, 'no command link of the extension\'s can run');
  assert.equal(md.supportHtml, false);
});
