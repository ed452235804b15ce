// MCP's stateless 2026-07-28 revision, with SDK v2's own client
// (@modelcontextprotocol/client) against zot-host mcp on stdio, zot-host mcp
// --http, and the editor's server of one extension: the client negotiates
// the revision (pinned, or `auto`), lists and calls zot tools, hears notes
// as progress or log messages, answers an interactive tool's panel through
// input_required rounds, cancels a call; a forged or replayed requestState
// reaches no call; the HTTP guard holds for requests of this revision. The
// 2025 clients of the other MCP tests keep working beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, lib, makeExt, ROOT, serveMcpHttp, startHost, tmpdir, waitFor } from '../helpers.mjs';
import { TYPIST_TOOL, textOf as textOfLength, typistExtension } from './typist.mjs';

const require = createRequire(import.meta.url);
const { Client, StreamableHTTPClientTransport, LOG_LEVEL_META_KEY } = require('@modelcontextprotocol/client');
const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
/** @type {typeof import('../../out/types/mcp/transport/http.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));

const MODERN = '2026-07-28';
const ASK = path.join(ROOT, 'samples', 'ask-user');
const NOTES = [{ level: 'info', message: 'reading files' }, { level: 'warn', message: 'one file was skipped' }, { level: 'success', message: 'indexed' }];
/** The text of a result's first block. @param {{ content: unknown[] }} r */
const textOf = (r) => /** @type {{ text: string }} */ (r.content[0]).text;
const question = { question: 'Which database?', choices: ['SQLite', 'Postgres', 'MySQL'] };

/** @typedef {import('@modelcontextprotocol/client').ElicitRequest['params']} ElicitParams */
/** @typedef {import('@modelcontextprotocol/client').ElicitRequestFormParams} FormParams */
/**
 * The JSON-RPC answer to a raw tools/call of this revision, as these tests read it.
 * @typedef {{ result: { resultType?: string, requestState: string, isError?: boolean, content: { type: string, text: string }[] } }} RawCallAnswer
 */

/** A behave extension with a tool that notes its steps, one that works until cancelled, and a command. */
function worker() {
  return makeExt(tmpdir(), 'worker', {
    caps: ['commands', 'tools', 'tool_cancel'],
    tools: [{ name: 'index', behaviour: 'progress', notes: NOTES }, { name: 'work', behaviour: 'cancellable' }, { name: 'echo' }],
    commands: [{ name: 'greet', reply: { action: 'prompt', prompt: 'Say hello' } }],
  });
}

/**
 * A v2 client connected over `how` ('stdio', 'cli-http': zot-host mcp --http,
 * 'editor': the in-process server at one extension's endpoint), answering
 * each form with `answer(params)` when it elicits.
 * @param {import('node:test').TestContext} t
 * @param {'stdio' | 'cli-http' | 'editor'} how
 * @param {{ exts?: string[], mode?: 'auto' | { pin: string }, elicits?: boolean, answer?: (params: ElicitParams) => import('@modelcontextprotocol/client').ElicitResult }} [opts]
 */
async function connect(t, how, { exts = [ASK, worker()], mode = { pin: MODERN }, elicits = true, answer = () => ({ action: 'cancel' }) } = {}) {
  const client = new Client({ name: 'modern-test', version: '1.0.0' }, { capabilities: elicits ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode } });
  /** The forms asked for (zot asks with forms only). @type {FormParams[]} */
  const asked = [];
  /** @type {import('@modelcontextprotocol/client').LoggingMessageNotificationParams[]} */
  const logs = [];
  if (elicits) client.setRequestHandler('elicitation/create', async (req) => { asked.push(/** @type {FormParams} */ (req.params)); return answer(req.params); });
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
  /** @type {<T extends import('../../out/types/protocol/index.js').FrameFromHost['type']>(type: T) => import('../helpers.mjs').Seen<T>[]} */
  let received = () => [];
  if (how === 'stdio') {
    const home = tmpdir('zot-home-');
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', ...exts.flatMap((e) => ['--ext', e])], env: { ...process.env, ZOT_HOME: home }, stderr: 'pipe' }));
  } else if (how === 'cli-http') {
    const { info } = await serveMcpHttp(t, ['--no-discover', ...exts.flatMap((e) => ['--ext', e])]);
    await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${info.token}` } } }));
  } else {
    // The editor's server of one extension, on a host without a UI of its own (as zot-host mcp --http).
    const host = await startHost(t, exts, { ui: new lib.HeadlessUI() });
    const server = await startMcpHttpServer(host);
    t.after(() => server.close());
    received = (type) => host.received('worker', type);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/ext/worker`), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
  }
  t.after(() => client.close());
  return { client, asked, logs, received };
}

for (const how of /** @type {const} */ (['stdio', 'cli-http'])) {
  test(`${how}: a client pinned to ${MODERN}, and one in auto mode, get that revision; tools carry titles and annotations; calls and prompts work`, async (t) => {
    for (const mode of /** @type {const} */ ([{ pin: MODERN }, 'auto'])) {
      const { client } = await connect(t, how, { mode });
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN, JSON.stringify(mode));
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((x) => x.name).sort(), ['ask_user', 'echo', 'index', 'work']);
      const ask = tools.find((x) => x.name === 'ask_user');
      assert.ok(ask, 'ask_user is listed');
      assert.deepEqual([ask.title, ask.annotations], ['ask_user (zot: ask-user)', { title: 'ask_user (zot: ask-user)', readOnlyHint: false }]);
      assert.equal(tools.find((x) => x.name === 'echo')?.title, 'echo (zot: worker)');
      const r = await client.callTool({ name: 'echo', arguments: { era: MODERN } });
      assert.deepEqual([r.isError, r.content], [false, [{ type: 'text', text: `{"era":"${MODERN}"}` }]]);
      const missing = await client.callTool({ name: 'nope', arguments: {} });
      assert.deepEqual([missing.isError, textOf(missing)], [true, 'not run: no running extension provides the tool "nope"']);
      assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name), ['greet']);
      const prompt = await client.getPrompt({ name: 'greet', arguments: { args: 'x' } });
      assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Say hello' } }]);
      await assert.rejects(client.getPrompt({ name: 'nope' }), /no active zot command "nope"; prompts\/list names the ones there are/);
    }
  });

  test(`${how}: notes during a ${MODERN} call are its progress; without a token, log messages only at the level the request asks for`, async (t) => {
    const { client, logs } = await connect(t, how);
    /** @type {import('@modelcontextprotocol/client').Progress[]} */
    const progress = [];
    const r = await client.callTool({ name: 'index', arguments: {} }, { onprogress: (p) => progress.push(p) });
    assert.deepEqual(r.content, [{ type: 'text', text: 'done' }]);
    assert.deepEqual(progress.map((p) => [p.progress, p.message]), [[1, 'reading files'], [2, 'one file was skipped'], [3, 'indexed']]);
    assert.deepEqual(logs, [], 'a note that was progress is not logged too');

    // This revision logs only when a request asks, at the level it names.
    await client.callTool({ name: 'index', arguments: {} });
    assert.deepEqual(logs, [], 'no level asked: no log messages');
    await client.callTool({ name: 'index', arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: 'warning' } });
    assert.deepEqual(logs, [{ level: 'warning', logger: 'worker', data: 'one file was skipped' }]);
    await client.callTool({ name: 'index', arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: 'info' } });
    assert.deepEqual(logs.slice(1), [
      { level: 'info', logger: 'worker', data: 'reading files' },
      { level: 'warning', logger: 'worker', data: 'one file was skipped' },
      { level: 'notice', logger: 'worker', data: 'indexed' },
    ]);
  });

  test(`${how}: an interactive tool asks through input_required; the choice reaches the extension as keys; decline and cancel end the call`, async (t) => {
    const { client, asked } = await connect(t, how, { answer: () => ({ action: 'accept', content: { choice: 'MySQL' } }) });
    const r = await client.callTool({ name: 'ask_user', arguments: question });
    assert.deepEqual([r.isError, r.content], [false, [{ type: 'text', text: 'User chose: MySQL' }]]);
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /^Which database\?\n\(↑\/↓ choose · enter select · esc cancel\)$/);
    assert.deepEqual(asked[0].requestedSchema, { type: 'object', properties: { choice: { type: 'string', title: 'Which database?', enum: ['SQLite', 'Postgres', 'MySQL'] } }, required: ['choice'] });

    for (const action of /** @type {const} */ (['decline', 'cancel'])) {
      const other = await connect(t, how, { answer: () => ({ action }) });
      const d = await other.client.callTool({ name: 'ask_user', arguments: question });
      assert.equal(d.isError, true, action);
      assert.match(textOf(d), /dismiss|cancel/i, action);
    }
  });

  test(`${how}: a free-text answer over 4,096 characters is refused, asked again through input_required naming the limit; one at the limit is typed whole, in order`, async (t) => {
    const atLimit = textOfLength(4096);
    const answers = [textOfLength(300_000), atLimit];
    /** @type {FormParams[]} */
    const seen = [];
    const { client } = await connect(t, how, { exts: [typistExtension()], answer: (params) => ({ action: 'accept', content: { text: answers[seen.push(/** @type {FormParams} */ (params)) - 1] } }) });
    const r = await client.callTool({ name: TYPIST_TOOL, arguments: {} }, { timeout: 60_000 });
    assert.equal(r.isError, false, JSON.stringify(r).slice(0, 300));
    assert.deepEqual(JSON.parse(textOf(r)), { typed: atLimit, keys: 4096 + 1 }, 'nothing of the refused answer was typed');
    assert.equal(seen.length, 2);
    assert.equal(/** @type {{ maxLength?: number }} */ (seen[0].requestedSchema.properties.text).maxLength, 4096);
    assert.match(seen[1].message, /^The answer was refused: it is 300000 characters long, and at most 4096 are accepted\. Answer again, within 4096 characters\.\n\nType it\n/);
  });

  test(`${how}: a ${MODERN} client that cannot elicit is not offered the interactive tool, and a call of it is refused clearly`, async (t) => {
    const { client } = await connect(t, how, { elicits: false });
    assert.ok(!(await client.listTools()).tools.some((x) => x.name === 'ask_user'));
    const r = await client.callTool({ name: 'ask_user', arguments: question });
    assert.deepEqual([r.isError, textOf(r)], [true, 'not run: interactive extension tools require an interactive host']);
  });
}

for (const how of /** @type {const} */ (['stdio', 'cli-http'])) {
  test(`${how}: a tool an extension registers later reaches a ${MODERN} client listening with subscriptions/listen`, async (t) => {
    const ext = makeExt(tmpdir(), 'late', { tools: [{ name: 'early' }], registerLate: 'late_tool', registerLateMs: 1500 });
    /** @type {string[][]} */
    const seen = [];
    const client = new Client({ name: 'modern-test', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: MODERN } },
      listChanged: { tools: { onChanged: (_err, tools) => void seen.push((tools ?? []).map((x) => x.name).sort()) } },
    });
    const args = ['--no-discover', '--ext', ext];
    if (how === 'stdio') await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' }));
    else {
      const { info } = await serveMcpHttp(t, args);
      await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${info.token}` } } }));
    }
    t.after(() => client.close());
    assert.deepEqual((await client.listTools()).tools.map((x) => x.name), ['early']);
    await waitFor('the changed list', () => seen.some((names) => names.includes('late_tool')), 10_000);
    assert.deepEqual(seen.at(-1), ['early', 'late_tool']);
  });
}

test(`stdio: cancelling a ${MODERN} call reaches the extension as tool_cancel; the connection goes on`, async (t) => {
  const home = tmpdir('zot-home-');
  const ext = makeExt(tmpdir(), 'canceller', { caps: ['tools', 'tool_cancel'], tools: [{ name: 'work', behaviour: 'cancellable' }, { name: 'echo' }] });
  const client = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', '--ext', ext], env: { ...process.env, ZOT_HOME: home }, stderr: 'pipe' }));
  t.after(() => client.close());
  const log = path.join(home, 'logs', 'ext-canceller.log');
  const controller = new AbortController();
  const call = client.callTool({ name: 'work', arguments: {} }, { signal: controller.signal });
  await waitFor('the call reached the extension', () => fs.existsSync(log) && /RECV \{"type":"tool_call"/.test(fs.readFileSync(log, 'utf8')));
  controller.abort();
  await assert.rejects(call);
  await waitFor('tool_cancel reached the extension', () => /RECV \{"type":"tool_cancel","id":"\d+"\}/.test(fs.readFileSync(log, 'utf8')));
  await waitFor('work stopped', () => /CANCELLED \d+/.test(fs.readFileSync(log, 'utf8')));
  assert.equal((await client.callTool({ name: 'echo', arguments: { after: 'cancel' } })).isError, false);
});

test(`the editor's server of one extension serves ${MODERN} too: only its tools, progress, and cancellation of a call`, async (t) => {
  const { client, received } = await connect(t, 'editor');
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  assert.deepEqual((await client.listTools()).tools.map((x) => x.name).sort(), ['echo', 'index', 'work'], 'only the extension of its endpoint');
  /** @type {(string | undefined)[]} */
  const progress = [];
  await client.callTool({ name: 'index', arguments: {} }, { onprogress: (p) => progress.push(p.message) });
  assert.deepEqual(progress, ['reading files', 'one file was skipped', 'indexed']);
  const other = await client.callTool({ name: 'ask_user', arguments: question });
  assert.equal(other.isError, true, 'a tool of another extension is not reached through this endpoint');
  const controller = new AbortController();
  const call = client.callTool({ name: 'work', arguments: {} }, { signal: controller.signal });
  const [frame] = await waitFor('delivered', () => received('tool_call').filter((f) => f.name === 'work').length && received('tool_call').filter((f) => f.name === 'work'));
  controller.abort();
  await assert.rejects(call);
  await waitFor('tool_cancel', () => received('tool_cancel').some((f) => f.id === frame.id));
});

/**
 * A raw request of the 2026 revision: its envelope in `_meta` and the headers it requires.
 * @param {string} url
 * @param {string | undefined} token
 * @param {{ id: number, method: string, params: { name?: string, [key: string]: unknown } }} body
 * @param {Record<string, string>} [headers]
 */
function modernPost(url, token, body, headers = {}) {
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
  const full = { jsonrpc: '2.0', ...body, params: { ...body.params, _meta: meta } };
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': MODERN, 'Mcp-Method': body.method, ...(body.params?.name && { 'Mcp-Name': body.params.name }), ...(token && { Authorization: `Bearer ${token}` }), ...headers },
    body: JSON.stringify(full),
  });
}

test(`a ${MODERN} requestState that is forged, replayed, or issued for another tool reaches no call`, async (t) => {
  const host = await startHost(t, [ASK, worker()], { ui: new lib.HeadlessUI() });
  const server = await startMcpHttpServer(host);
  t.after(() => server.close());
  /** @type {(id: number, extra?: Record<string, unknown>, name?: string) => Promise<RawCallAnswer>} */
  const call = (id, extra = {}, name = 'ask_user') => modernPost(server.url, server.token, { id, method: 'tools/call', params: { name, arguments: name === 'ask_user' ? question : {}, ...extra } }).then((r) => /** @type {Promise<RawCallAnswer>} */ (r.json()));
  const first = await call(1);
  assert.equal(first.result.resultType, 'input_required');
  const state = first.result.requestState;
  assert.match(state, /^[A-Za-z0-9_-]{22}$/, '128 random bits');
  const gone = /is no longer waiting for an answer/;
  const answer = { panel: { action: 'accept', content: { choice: 'Postgres' } } };
  assert.match((await call(2, { requestState: 'forged', inputResponses: answer })).result.content[0].text, gone);
  assert.match((await call(3, { requestState: state, inputResponses: answer }, 'echo')).result.content[0].text, gone, 'a state is good only for the tool it was issued for');
  const done = await call(4, { requestState: state, inputResponses: answer });
  assert.deepEqual(done.result.content, [{ type: 'text', text: 'User chose: Postgres' }]);
  assert.match((await call(5, { requestState: state, inputResponses: answer })).result.content[0].text, gone, 'answered once: a replay finds nothing');
  // An answer that is none of the choices closes the panel as Esc would.
  const again = await call(6);
  const wrong = await call(7, { requestState: again.result.requestState, inputResponses: { panel: { action: 'accept', content: { choice: 'Oracle' } } } });
  assert.equal(wrong.result.isError, true);
  assert.match(wrong.result.content[0].text, /dismiss|cancel/i);
});

test(`the HTTP guard holds for ${MODERN} requests: token, Host and Origin, body size`, async (t) => {
  const host = await startHost(t, [worker()], { ui: new lib.HeadlessUI() });
  const server = await startMcpHttpServer(host);
  t.after(() => server.close());
  const list = { id: 1, method: 'tools/list', params: {} };
  assert.equal((await modernPost(server.url, undefined, list)).status, 401, 'no token');
  assert.equal((await modernPost(server.url, 'wrong', list)).status, 401, 'a wrong token');
  assert.equal((await modernPost(server.url, server.token, list, { Origin: 'https://evil.example' })).status, 403, 'a foreign Origin');
  const big = { id: 2, method: 'tools/call', params: { name: 'echo', arguments: { pad: 'x'.repeat(5 * 1024 * 1024) } } };
  assert.equal((await modernPost(server.url, server.token, big)).status, 413, 'a body over the bound');
  const ok = await modernPost(server.url, server.token, list);
  assert.equal(ok.status, 200);
  assert.deepEqual((/** @type {{ result: { tools: { name: string }[] } }} */ (await ok.json())).result.tools.map((x) => x.name).sort(), ['echo', 'index', 'work']);
  assert.equal(server.sessions, 0, 'this revision opens no session');
});

test(`a ${MODERN} call whose answer does not come in time is cancelled, and so is the one waiting longest when too many wait`, async (t) => {
  const host = await startHost(t, [ASK], { ui: new lib.HeadlessUI() });
  const server = await startMcpHttpServer(host, undefined, { modern: { answerWaitMs: 400, maxWaitingCalls: 1 } });
  t.after(() => server.close());
  /** @type {(id: number, extra?: Record<string, unknown>) => Promise<RawCallAnswer>} */
  const call = (id, extra = {}) => modernPost(server.url, server.token, { id, method: 'tools/call', params: { name: 'ask_user', arguments: question, ...extra } }).then((r) => /** @type {Promise<RawCallAnswer>} */ (r.json()));
  const cancelled = () => host.stderrOf('ask-user').filter((l) => l.includes('cancelled by the host')).length;
  const answer = { panel: { action: 'accept', content: { choice: 'SQLite' } } };

  const late = await call(1);
  await waitFor('the unanswered call cancelled', () => cancelled() === 1, 5000);
  const gone = await call(2, { requestState: late.result.requestState, inputResponses: answer });
  assert.match(gone.result.content[0].text, /no longer waiting for an answer \(it was answered, cancelled, or not answered within 400 ms\)/);

  // One may wait: a second question cancels the first.
  const first = await call(3);
  const second = await call(4);
  await waitFor('the first cancelled by the second', () => cancelled() === 2, 5000);
  assert.match((await call(5, { requestState: first.result.requestState, inputResponses: answer })).result.content[0].text, /no longer waiting/);
  assert.deepEqual((await call(6, { requestState: second.result.requestState, inputResponses: answer })).result.content, [{ type: 'text', text: 'User chose: SQLite' }]);
});
