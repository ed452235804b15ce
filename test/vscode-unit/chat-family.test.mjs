// What terva's extensions get from @zot (src/vscode/chat, bundled from src)
// against a real host and real extensions, with a scripted model in place of
// VS Code's: the standing context leads each request and the cards close it
// (never kept in the conversation), essential tools are carried first, a
// call's line shows its display subject with secrets masked, and each
// conversation is a session: minted at its first request, named again on a
// switch, ended before the next one, and answered to list_sessions and
// read_session from what the chat recorded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bundleSources, lib, makeExt, ROOT, startHost, tmpdir, waitFor, ownFields } from '../helpers.mjs';

/** @typedef {import('../../src/vscode/chat/participant.js').ZotChatResult} ZotChatResult */
/** @typedef {import('../../src/vscode/chat/sessions.js').ChatSessions} ChatSessions */
/**
 * The stand-in of the VS Code API (test/vscode-chat-api.cjs): VS Code's own types where the chat gets them, its
 * ChatResponseTurn a plain class, and the participants the chat registered, each with the handler it gave.
 * @typedef {Omit<typeof import('vscode'), 'ChatResponseTurn'> & {
 *   ChatResponseTurn: new () => import('vscode').ChatResponseTurn,
 *   participants: Map<string, { handler: (...args: Parameters<import('vscode').ChatRequestHandler>) => Promise<ZotChatResult> }>,
 * }} VscodeStandIn
 */
/** @typedef {{ text?: string, calls?: [string, object][] }} Step One answer of a scripted model: its text and the calls it asks for. */
/** @typedef {{ messages: string[], tools: string[] }} SeenRequest What a scripted model was sent: each message's text, the tools' names. */

const require = createRequire(import.meta.url);
/** @type {string} */
let scratch;
/** @type {import('../bundled').Bundled<'vscode/chat', 'participant' | 'sessions'>} */
let m;
/** @type {VscodeStandIn} */
let vscode;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-chat-family-'));
  mkdirSync(path.join(scratch, 'node_modules', 'vscode'), { recursive: true });
  writeFileSync(path.join(scratch, 'node_modules', 'vscode', 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'test', 'vscode-chat-api.cjs'))});\n`);
  m = await bundleSources(scratch, 'vscode/chat', ['participant', 'sessions'], { external: ['vscode'] });
  vscode = require(path.join(scratch, 'node_modules', 'vscode'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A model that records each request's messages and answers from the script.
 * @param {Step[]} script
 * @param {SeenRequest[]} seen
 * @returns {import('vscode').LanguageModelChat}
 */
function scriptedModel(script, seen) {
  let step = 0;
  // Partial: what the model loop uses of a model; its response has a stream and no text.
  return /** @type {import('vscode').LanguageModelChat} */ (/** @type {unknown} */ ({
    vendor: 'test', id: 'scripted', capabilities: {},
    /**
     * @param {import('vscode').LanguageModelChatMessage[]} messages
     * @param {import('vscode').LanguageModelChatRequestOptions} opts
     */
    sendRequest: async (messages, opts) => {
      assert.ok(opts.tools, 'the loop offers tools');
      seen.push({ messages: messages.map((msg) => msg.content.map((p) => /** @type {{ value?: string }} */ (p).value ?? '').join('')), tools: opts.tools.map((t) => t.name) });
      const s = script[Math.min(step++, script.length - 1)];
      return {
        stream: (async function* () {
          if (s.text) yield new vscode.LanguageModelTextPart(s.text);
          for (const [i, [name, input]] of (s.calls ?? []).entries()) yield new vscode.LanguageModelToolCallPart(`call-${step}-${i}`, name, input);
        })(),
      };
    },
  }));
}

/**
 * Workspace storage as VS Code's Memento keeps it: values through JSON.
 * @returns {import('vscode').Memento}
 */
function memento() {
  /** @type {Map<string, unknown>} */
  const data = new Map();
  return { get: /** @type {import('vscode').Memento['get']} */ ((/** @type {string} */ k) => data.get(k)), update: async (k, v) => void data.set(k, JSON.parse(JSON.stringify(v))), keys: () => [...data.keys()] };
}

/**
 * @param {import('../helpers.mjs').TestHost} host
 * @param {ChatSessions | undefined} sessions
 */
function chat(host, sessions) {
  /** @type {object[]} */
  const replies = [];
  m.participant.registerChatParticipant(
    // Partial: the participant reads the extension's folder and keeps what it registers.
    /** @type {import('vscode').ExtensionContext} */ (/** @type {unknown} */ ({ extensionUri: { path: '/ext' }, subscriptions: [] })),
    // Partial replies: the chat only records to them.
    { host: () => host, reload: () => host.reload(), maxSteps: () => 5, sessions, replies: /** @type {import('../../src/vscode/ui/trace.js').UiTrace} */ (/** @type {unknown} */ ({ record: (/** @type {string} */ kind, /** @type {object} */ data) => replies.push({ kind, ...data }) })) },
  );
  const participant = vscode.participants.get(m.participant.PARTICIPANT_ID);
  assert.ok(participant, 'the chat registered its participant');
  const handler = participant.handler;
  /** @type {string[]} */
  const progress = [];
  /**
   * @param {string} prompt
   * @param {import('vscode').LanguageModelChat} model
   * @param {import('vscode').ChatResponseTurn[]} [history]
   */
  const ask = (prompt, model, history = []) => handler(
    // Partial request and stream: what the chat reads of a request, and the two ways it answers.
    /** @type {import('vscode').ChatRequest} */ ({ prompt, model }), { history },
    /** @type {import('vscode').ChatResponseStream} */ (/** @type {unknown} */ ({ markdown: () => undefined, progress: (/** @type {string} */ p) => progress.push(p) })), new lib.CancellationTokenSource().token);
  return { ask, progress };
}

/**
 * A reply as VS Code hands it back in a later request's history.
 * @param {ZotChatResult['metadata']} metadata
 */
function replyTurn(metadata) {
  return Object.assign(new vscode.ChatResponseTurn(), { result: { metadata }, response: [] });
}

test('the standing context leads every request, the cards close each one and are never kept; essential tools come first', async (t) => {
  const frames = [
    { type: 'register_context', text: 'Amounts in this repository are integer cents. Never use floating point for money.' },
    { type: 'context_card', id: 'import', text: 'Last import 09:40, 2 rows rejected.' },
  ];
  const dir = makeExt(tmpdir(), 'ledger', { tools: [{ name: 'ledger_search', essential: true }], raw: frames.map((f) => JSON.stringify(f) + '\n') });
  const host = await startHost(t, [dir]);
  await waitFor('the card', () => host.contextCards());
  /** @type {SeenRequest[]} */
  const seen = [];
  const { ask } = chat(host, undefined);
  await ask('hello', scriptedModel([{ calls: [['ledger_search', { q: 'x' }]] }, { text: 'done' }], seen));
  assert.equal(seen.length, 2);
  for (const req of seen) {
    assert.match(req.messages[0], /^<extension-context source="ledger">\nAmounts in this repository are integer cents/);
    const last = req.messages.at(-1);
    assert.ok(last, 'a last message');
    assert.match(last, /^Live state from zot extensions[^\n]*\n<extension-card source="ledger" id="import">\nLast import 09:40, 2 rows rejected\.\n<\/extension-card>$/);
    assert.equal(req.messages.filter((x) => x.includes('<extension-card')).length, 1, 'the card is sent once, last, and not kept from the step before');
    assert.equal(req.tools[0], 'ledger_search');
  }
  assert.equal(seen[0].messages[1], 'hello');
});

test('a call\'s progress line shows its display subject, with the secret arguments masked', async (t) => {
  const dir = makeExt(tmpdir(), 'mail', { tools: [{ name: 'invoice_send', display: { subject: '{customer} {invoice_id} {smtp_password}', redact: ['smtp_password'] } }] });
  const host = await startHost(t, [dir]);
  await waitFor('the tool', () => host.findTool('invoice_send'));
  const { ask, progress } = chat(host, undefined);
  await ask('send it', scriptedModel([{ calls: [['invoice_send', { customer: 'ACME', invoice_id: 'inv-7', smtp_password: 'hunter2' }]] }, { text: 'ok' }], []));
  assert.ok(progress.includes('Running invoice_send: ACME inv-7 ••••…'), progress.join(' | '));
  assert.ok(!progress.some((p) => p.includes('hunter2')));
});

test('each conversation is a session: identity at its first request, again on a switch, ended before the next; list_sessions and read_session answer from it', async (t) => {
  const sessions = new m.sessions.ChatSessions(memento(), () => '/srv/code/billing-api');
  const rec = makeExt(tmpdir(), 'rec', {
    subscribe: { events: ['session_start', 'session_end'] },
    commands: [{ name: 'peek', after: [{ type: 'list_sessions', id: 'l1' }, { type: 'list_sessions', id: 'l2', project_id: 'elsewhere-0000' }] }],
  });
  const host = await startHost(t, [rec], { services: { sessions } });
  const { ask } = chat(host, sessions);
  const first = await ask('Why is 4020 off by three cents?\nDetails follow.', scriptedModel([{ text: 'The import rounds each line.' }], []));
  const a = first.metadata.sessionId;
  assert.ok(a, 'a session id');
  assert.match(a, /^[0-9a-f]{16}$/);
  const second = await ask('And 4030?', scriptedModel([{ text: 'It matches.' }], []), [replyTurn(first.metadata)]);
  assert.equal(second.metadata.sessionId, a, 'the same conversation keeps its session');
  const other = await ask('A new chat', scriptedModel([{ text: 'Hi.' }], []));
  const b = other.metadata.sessionId;
  assert.notEqual(b, a);
  // Back to the first conversation: a switch.
  await ask('Back again', scriptedModel([{ text: 'Yes.' }], []), [replyTurn(second.metadata)]);

  const events = await waitFor('five session events', () => { const e = host.received('rec', 'event'); return e.length === 5 && e; });
  assert.deepEqual(events.map((e) => `${e.event} ${e.session_id === a ? 'a' : 'b'}`), ['session_start a', 'session_end a', 'session_start b', 'session_end b', 'session_start a']);
  // The first start names no title (its prompt had not passed the guards yet); a start after a switch does.
  assert.deepEqual(ownFields(events[0]), { type: 'event', event: 'session_start', project_id: sessions.projectId() });
  assert.deepEqual(ownFields(events[4]), { type: 'event', event: 'session_start', session_title: 'Why is 4020 off by three cents?', project_id: sessions.projectId() });
  assert.deepEqual([events[0].session_id, events[0].cwd, events[4].session_id], [a, '/srv/code/billing-api', a]);
  // zot's reason on each end: another chat became the active one.
  assert.deepEqual(events.filter((e) => e.event === 'session_end').map((e) => e.reason), ['session_switch', 'session_switch']);
  const projectId = sessions.projectId();
  assert.ok(projectId, 'a project id');
  assert.match(projectId, /^srv-code-billing-api-[0-9a-f]{4}$/);

  await host.runCommand('peek', '');
  const list = await waitFor('the list', () => host.received('rec', 'session_list').find((f) => f.id === 'l1'));
  assert.ok(list.sessions, 'the list has sessions');
  assert.deepEqual(list.sessions.map((s) => [s.session_id, s.title, s.messages]), [[a, 'Why is 4020 off by three cents?', 6], [b, 'A new chat', 2]], 'newest first');
  assert.equal(list.sessions[0].preview, 'Why is 4020 off by three cents?');
  assert.deepEqual(host.received('rec').find((f) => 'id' in f && f.id === 'l2'), { type: 'session_list', id: 'l2', sessions: null }, 'another project\'s id lists nothing');
  const read = await sessions.read(a);
  assert.ok(read, 'the session is kept');
  assert.deepEqual(read.slice(0, 4), [
    { role: 'user', text: 'Why is 4020 off by three cents?\nDetails follow.' }, { role: 'assistant', text: 'The import rounds each line.' },
    { role: 'user', text: 'And 4030?' }, { role: 'assistant', text: 'It matches.' },
  ]);
  assert.equal(await sessions.read('../../etc/passwd'), undefined);
  assert.equal(sessions.resume('not-an-id'), undefined, 'metadata not shaped as written names no session');
});

test('a prompt a guard blocked is never a session\'s title, never stored, never sent on: not in session_start, list_sessions or the workspace\'s state', async (t) => {
  const state = memento();
  const sessions = new m.sessions.ChatSessions(state, () => '/srv/code/billing-api');
  const key = 'sk-live-4f9a0c1d2e3b';
  const guard = makeExt(tmpdir(), 'guard', {
    subscribe: { events: ['session_start', 'user_message'], intercept: ['user_message'] },
    interceptReplies: { user_message: { block: true, reason: 'that looks like an API key' } },
    commands: [{ name: 'peek', after: [{ type: 'list_sessions', id: 'l1' }] }],
  });
  const watcher = makeExt(tmpdir(), 'watcher', { subscribe: { events: ['session_start', 'session_end', 'user_message'] } });
  const host = await startHost(t, [guard, watcher], { services: { sessions } });
  const { ask } = chat(host, sessions);
  /** @type {SeenRequest[]} */
  const seen = [];
  const blocked = await ask(`${key} is my key\nwhy does login fail?`, scriptedModel([{ text: 'never asked' }], seen));
  assert.equal(blocked.metadata.stop, 'blocked');
  assert.equal(seen.length, 0, 'the model never saw it');
  const id = blocked.metadata.sessionId;
  assert.ok(id, 'the conversation has its session all the same');
  const started = await waitFor('session_start', () => host.received('watcher', 'event').find((e) => e.event === 'session_start'));
  assert.deepEqual(started, { type: 'event', event: 'session_start', session_id: id, cwd: '/srv/code/billing-api', sequence: started.sequence, project_id: sessions.projectId() });
  assert.deepEqual(await sessions.list(), [], 'nothing stored');
  assert.ok(!JSON.stringify(state.keys().map((k) => state.get(k))).includes(key), 'the workspace state holds no piece of it');
  await host.runCommand('peek', '');
  const list = await waitFor('the list', () => host.received('guard', 'session_list').find((f) => f.id === 'l1'));
  assert.equal(list.sessions, null);
  // Only the guard's own intercept carried it; no other frame to any extension did.
  const sent = [...host.received('watcher'), ...host.received('guard').filter((f) => f.type !== 'event_intercept')];
  assert.deepEqual(sent.filter((f) => JSON.stringify(f).includes(key)), []);
  // The same conversation goes on: its next prompt, past the guard, titles and starts what is stored.
  await host.stopExtension('guard');
  const next = await ask('Why does login fail?', scriptedModel([{ text: 'The cookie expired.' }], seen), [replyTurn(blocked.metadata)]);
  assert.equal(next.metadata.sessionId, id, 'still its session');
  assert.deepEqual((await sessions.list()).map((s) => [s.session_id, s.title, s.messages]), [[id, 'Why does login fail?', 2]]);
});

test('a prompt a guard rewrote is kept and replayed as the model saw it, never as typed', async (t) => {
  const sessions = new m.sessions.ChatSessions(memento(), () => '/srv/code/billing-api');
  const guard = makeExt(tmpdir(), 'scrub', { subscribe: { events: [], intercept: ['user_message'] }, interceptReplies: { user_message: { replace_text: 'my key is [removed]' } } });
  const host = await startHost(t, [guard], { services: { sessions } });
  const { ask } = chat(host, sessions);
  /** @type {SeenRequest[]} */
  const seen = [];
  const first = await ask('my key is sk-live-99aa88bb77', scriptedModel([{ text: 'Noted.' }], seen));
  assert.equal(first.metadata.prompt, 'my key is [removed]');
  assert.deepEqual((await sessions.list()).map((s) => s.title), ['my key is [removed]']);
  await ask('and then?', scriptedModel([{ text: 'Done.' }], seen), [replyTurn(first.metadata)]);
  assert.ok(!JSON.stringify(seen).includes('sk-live-99aa88bb77'), 'no request to the model replays what was typed');
  assert.ok(!JSON.stringify(await sessions.read(/** @type {string} */ (first.metadata.sessionId))).includes('sk-live'));
});
