// A scripted model on 127.0.0.1 for the agent CLIs (../shared/HARNESSES.md):
// Anthropic Messages over SSE (fakeAnthropic), OpenAI Responses over SSE
// (fakeResponses). It keeps no state: step i of the script answers the
// request that already holds i assistant turns (Anthropic) or i
// function_call_output items (Responses), so a retry gets the same answer; a
// request that offers no tools (a title, a summary) gets a short text. Every
// request is kept, parsed, for the test to read, with when it came and when
// its answer was sent (the bench times the harness between the two).
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * One step: a call of the tool the request offers under a name `tool` picks (none fits: the step says so in text), with
 * `input` (or what it gives for the name picked), or a text.
 * @typedef {{ tool: (names: string[]) => string | undefined, input: Record<string, unknown> | ((name: string) => Record<string, unknown>) } | { text: string }} Step
 * @typedef {{ role: string, content: string | { type: string, [k: string]: unknown }[] }} Message
 * @typedef {{ type?: string, name?: string, tools?: ResponsesTool[] }} ResponsesTool
 * @typedef {{ url: string, body: { model?: unknown, tools?: ResponsesTool[], messages?: Message[], input?: { type?: string, call_id?: string, output?: unknown }[], [k: string]: unknown },
 *   received: number, answered: number, step: number, call?: string }} Seen A request: `received` when its headers came and `answered` when its
 *   answer was all written (ms, performance.timeOrigin + performance.now(): one clock for every process), the script's `step` it
 *   answered (its count of turns), and the tool `call`ed in that answer, if any.
 * @typedef {{ url: string, requests: Seen[], close: () => Promise<void> }} FakeModel
 */

/**
 * What one wire needs: its path, the names of the tools a request offers, how many steps it has
 * taken, and the answer to write for a step.
 * @typedef {{ path: RegExp, tools: (body: Seen['body']) => string[], turns: (body: Seen['body']) => number,
 *   answer: (res: import('node:http').ServerResponse, body: Seen['body'], call: { name: string, input: Record<string, unknown> } | { text: string }, n: number) => void }} Wire
 */

/**
 * Serves `script` over a wire; resolves once it listens on 127.0.0.1 (only).
 * @param {Step[]} script
 * @param {Wire} wire
 * @returns {Promise<FakeModel>}
 */
async function serve(script, wire) {
  /** @type {Seen[]} */
  const requests = [];
  const server = createServer((req, res) => {
    const received = clock();
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || !wire.path.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
        return;
      }
      /** @type {Seen['body']} */
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const tools = wire.tools(body);
      const turns = wire.turns(body);
      const step = tools.length === 0 ? { text: 'A title' } : script[turns] ?? { text: 'FINAL: the script is over' };
      const name = 'text' in step ? undefined : step.tool(tools);
      const call = 'text' in step ? step : name ? { name, input: typeof step.input === 'function' ? step.input(name) : step.input } : { text: `FINAL: no tool fits; offered: ${tools.join(', ')}` };
      /** @type {Seen} */
      const seen = { url: req.url ?? '', body, received, answered: NaN, step: turns, ...('name' in call && { call: call.name }) };
      requests.push(seen);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      wire.answer(res, body, call, turns + 1);
      res.end(() => (seen.answered = clock()));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)); }),
  };
}

/** Milliseconds on a clock every process of the machine shares (a child's own timestamps compare with it). */
export const clock = () => performance.timeOrigin + performance.now();

/**
 * An SSE writer: `event:` and `data:` (the data's `type` the event's name, then `extra` and the fields given).
 * @param {import('node:http').ServerResponse} res
 * @param {() => Record<string, unknown>} [extra]
 */
const events = (res, extra = () => ({})) => (/** @type {string} */ event, /** @type {Record<string, unknown>} */ data) => void res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...extra(), ...data })}\n\n`);

/**
 * The model over Anthropic Messages (Claude Code; Copilot CLI with COPILOT_PROVIDER_TYPE=anthropic): POST /v1/messages.
 * @param {Step[]} script
 */
export function fakeAnthropic(script) {
  return serve(script, {
    path: /^\/v1\/messages\b/,
    tools: (body) => (body.tools ?? []).map((t) => t.name ?? '').filter(Boolean),
    turns: (body) => (body.messages ?? []).filter((m) => m.role === 'assistant').length,
    answer(res, body, call, n) {
      const send = events(res);
      const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      send('message_start', { message: { id: `msg_fake_${n}`, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage } });
      if ('name' in call) {
        send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_fake_${n}`, name: call.name, input: {} } });
        send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } });
      } else {
        send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: call.text } });
      }
      send('content_block_stop', { index: 0 });
      send('message_delta', { delta: { stop_reason: 'name' in call ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
      send('message_stop', {});
    },
  });
}

/**
 * The model over OpenAI Responses (Codex): POST /v1/responses. A tool is named as the request offers it: a
 * function's `name`, or `<namespace>.<name>` for a tool of a namespace (Codex's MCP servers).
 * @param {Step[]} script
 */
export function fakeResponses(script) {
  return serve(script, {
    path: /^\/v1\/responses\b/,
    tools: (body) => offered(body.tools ?? []),
    turns: (body) => (body.input ?? []).filter((i) => i.type === 'function_call_output').length,
    answer(res, body, call, n) {
      let seq = 0;
      const send = events(res, () => ({ sequence_number: seq++ }));
      const dot = 'name' in call ? call.name.lastIndexOf('.') : -1;
      /** @type {Record<string, unknown>} */
      const item = 'name' in call
        ? { type: 'function_call', id: `fc_fake_${n}`, call_id: `call_fake_${n}`, ...(dot > 0 ? { namespace: call.name.slice(0, dot), name: call.name.slice(dot + 1) } : { name: call.name }), arguments: JSON.stringify(call.input), status: 'completed' }
        : { type: 'message', id: `msg_fake_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: call.text, annotations: [] }] };
      const response = { id: `resp_fake_${n}`, object: 'response', status: 'in_progress', model: body.model, output: /** @type {unknown[]} */ ([]) };
      send('response.created', { response });
      send('response.output_item.added', { output_index: 0, item: { ...item, ...('name' in call ? { arguments: '' } : { content: [] }), status: 'in_progress' } });
      send('response.output_item.done', { output_index: 0, item });
      const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
      send('response.completed', { response: { ...response, status: 'completed', output: [item], usage } });
    },
  });
}

/**
 * The names of the tools a Responses request offers: functions by name, a namespace's as `<namespace>.<name>`.
 * @param {ResponsesTool[]} tools
 * @returns {string[]}
 */
function offered(tools) {
  return tools.flatMap((t) => (t.type === 'namespace' ? (t.tools ?? []).map((x) => `${t.name}.${x.name}`) : t.name ? [t.name] : []));
}

/**
 * The text of every tool_result an Anthropic request carries, by tool_use id.
 * @param {Seen} request
 * @returns {Map<string, string>}
 */
export function toolResults(request) {
  const out = new Map();
  for (const m of request.body.messages ?? []) {
    if (typeof m.content === 'string') continue;
    for (const part of m.content) {
      if (part.type !== 'tool_result') continue;
      const c = /** @type {string | { type: string, text?: string }[]} */ (part.content);
      out.set(String(part.tool_use_id), typeof c === 'string' ? c : c.map((x) => x.text ?? '').join(''));
    }
  }
  return out;
}

/**
 * The output of every function call a Responses request carries, by call id.
 * @param {Seen} request
 * @returns {Map<string, string>}
 */
export function callOutputs(request) {
  const out = new Map();
  for (const i of request.body.input ?? []) {
    if (i.type === 'function_call_output') out.set(String(i.call_id), typeof i.output === 'string' ? i.output : JSON.stringify(i.output));
  }
  return out;
}
