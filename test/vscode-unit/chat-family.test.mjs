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
import { bundleSources, lib, makeExt, ROOT, startHost, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
let scratch;
let m;
let vscode;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-chat-family-'));
  mkdirSync(path.join(scratch, 'node_modules', 'vscode'), { recursive: true });
  writeFileSync(path.join(scratch, 'node_modules', 'vscode', 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'test', 'vscode-chat-api.cjs'))});\n`);
  m = await bundleSources(scratch, 'vscode/chat', ['participant', 'sessions'], { external: ['vscode'] });
  vscode = require(path.join(scratch, 'node_modules', 'vscode'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A model that records each request's messages and answers from the script. */
function scriptedModel(script, seen) {
  let step = 0;
  return {
    vendor: 'test', id: 'scripted', capabilities: {},
    sendRequest: async (messages, opts) => {
      seen.push({ messages: messages.map((msg) => msg.content.map((p) => p.value ?? '').join('')), tools: opts.tools.map((t) => t.name) });
      const s = script[Math.min(step++, script.length - 1)];
      return {
        stream: (async function* () {
          if (s.text) yield new vscode.LanguageModelTextPart(s.text);
          for (const [i, [name, input]] of (s.calls ?? []).entries()) yield new vscode.LanguageModelToolCallPart(`call-${step}-${i}`, name, input);
        })(),
      };
    },
  };
}

/** Workspace storage as VS Code's Memento keeps it: values through JSON. */
function memento() {
  const data = new Map();
  return { get: (k) => data.get(k), update: async (k, v) => void data.set(k, JSON.parse(JSON.stringify(v))), keys: () => [...data.keys()] };
}

function chat(host, sessions) {
  const replies = [];
  m.participant.registerChatParticipant({ extensionUri: { path: '/ext' }, subscriptions: [] }, { host: () => host, reload: () => host.reload(), maxSteps: () => 5, sessions, replies: { record: (kind, data) => replies.push({ kind, ...data }) } });
  const handler = vscode.participants.get(m.participant.PARTICIPANT_ID).handler;
  const progress = [];
  const ask = (prompt, model, history = []) => handler({ prompt, model }, { history }, { markdown: () => undefined, progress: (p) => progress.push(p) }, new lib.CancellationTokenSource().token);
  return { ask, progress };
}

/** A reply as VS Code hands it back in a later request's history. */
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
  const seen = [];
  const { ask } = chat(host, undefined);
  await ask('hello', scriptedModel([{ calls: [['ledger_search', { q: 'x' }]] }, { text: 'done' }], seen));
  assert.equal(seen.length, 2);
  for (const req of seen) {
    assert.match(req.messages[0], /^<extension-context source="ledger">\nAmounts in this repository are integer cents/);
    assert.match(req.messages.at(-1), /^Live state from zot extensions[^\n]*\n<extension-card source="ledger" id="import">\nLast import 09:40, 2 rows rejected\.\n<\/extension-card>$/);
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
  assert.deepEqual(events[0], { type: 'event', event: 'session_start', session_id: a, session_title: 'Why is 4020 off by three cents?', cwd: '/srv/code/billing-api', project_id: sessions.projectId() });
  assert.match(sessions.projectId(), /^srv-code-billing-api-[0-9a-f]{4}$/);

  await host.runCommand('peek', '');
  const list = await waitFor('the list', () => host.received('rec').find((f) => f.id === 'l1'));
  assert.deepEqual(list.sessions.map((s) => [s.session_id, s.title, s.messages]), [[a, 'Why is 4020 off by three cents?', 6], [b, 'A new chat', 2]], 'newest first');
  assert.equal(list.sessions[0].preview, 'Why is 4020 off by three cents?');
  assert.deepEqual(host.received('rec').find((f) => f.id === 'l2'), { type: 'session_list', id: 'l2', sessions: null }, 'another project\'s id lists nothing');
  assert.deepEqual((await sessions.read(a)).slice(0, 4), [
    { role: 'user', text: 'Why is 4020 off by three cents?\nDetails follow.' }, { role: 'assistant', text: 'The import rounds each line.' },
    { role: 'user', text: 'And 4030?' }, { role: 'assistant', text: 'It matches.' },
  ]);
  assert.equal(await sessions.read('../../etc/passwd'), undefined);
  assert.equal(sessions.resume('not-an-id'), undefined, 'metadata not shaped as written names no session');
});
