// A scripted model on 127.0.0.1 for the agent CLIs (../shared/HARNESSES.md):
// Anthropic Messages over SSE (fakeAnthropic), OpenAI Responses over SSE
// (fakeResponses). It keeps no state: step i of the script answers the
// request that already holds i assistant turns (Anthropic) or i
// function_call_output items (Responses), so a retry gets the same answer; a request that offers no tools (a title, a summary) gets
// a short text. Every request is kept, parsed, for the test to read.
import { createServer } from 'node:http';

/**
 * One step: a call of the tool the request offers under a name `tool` picks (null: none fits, the step says so in text), or a text.
 * @typedef {{ tool: (names: string[]) => string | undefined, input: Record<string, unknown> } | { text: string }} Step
 * @typedef {{ role: string, content: string | { type: string, [k: string]: unknown }[] }} Message
 * @typedef {{ url: string, body: { tools?: { name: string }[], messages?: Message[], [k: string]: unknown } }} Seen
 */

/**
 * Starts the model; resolves once it listens on 127.0.0.1 (only).
 * @param {Step[]} script
 * @returns {Promise<{ url: string, requests: Seen[], close: () => Promise<void> }>}
 */
export async function fakeAnthropic(script) {
  /** @type {Seen[]} */
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || !/^\/v1\/messages\b/.test(req.url ?? '')) {
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
      requests.push({ url: req.url ?? '', body });
      const tools = (body.tools ?? []).map((t) => t.name).filter(Boolean);
      const turns = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
      const step = tools.length === 0 ? { text: 'A title' } : script[turns] ?? { text: 'FINAL: the script is over' };
      /** @type {{ type: string, [k: string]: unknown }} */
      let block;
      if ('text' in step) {
        block = { type: 'text', text: step.text };
      } else {
        const name = step.tool(tools);
        block = name ? { type: 'tool_use', id: `toolu_fake_${turns + 1}`, name, input: step.input } : { type: 'text', text: `FINAL: no tool fits; offered: ${tools.join(', ')}` };
      }
      sse(res, body.model, block);
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

/**
 * One streamed answer of one content block.
 * @param {import('node:http').ServerResponse} res
 * @param {unknown} model
 * @param {{ type: string, [k: string]: unknown }} block
 */
function sse(res, model, block) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  /** @type {(event: string, data: Record<string, unknown>) => void} */
  const send = (event, data) => void res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  send('message_start', { message: { id: `msg_fake_${Date.now()}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } });
  if (block.type === 'tool_use') {
    send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
    send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: block.text } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  res.end();
}

/**
 * The text of every tool_result a request carries, by tool_use id.
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
 * The same model over OpenAI Responses (Codex): POST /v1/responses. A tool is named as the request offers it: a
 * function's `name`, or `<namespace>.<name>` for a tool of a namespace (Codex's MCP servers).
 * @param {Step[]} script
 * @returns {Promise<{ url: string, requests: Seen[], close: () => Promise<void> }>}
 */
export async function fakeResponses(script) {
  /** @type {Seen[]} */
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || !/^\/v1\/responses\b/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}');
        return;
      }
      /** @type {Seen['body'] & { input?: { type?: string }[] }} */
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end();
        return;
      }
      requests.push({ url: req.url ?? '', body });
      const tools = offered(/** @type {ResponsesTool[]} */ (body.tools ?? []));
      const turns = (body.input ?? []).filter((i) => i.type === 'function_call_output').length;
      const step = tools.length === 0 ? { text: 'A title' } : script[turns] ?? { text: 'FINAL: the script is over' };
      const name = 'text' in step ? undefined : step.tool(tools);
      const id = `${turns + 1}`;
      /** @type {Record<string, unknown>} */
      let item;
      if (name !== undefined && !('text' in step)) {
        const dot = name.lastIndexOf('.');
        item = { type: 'function_call', id: `fc_fake_${id}`, call_id: `call_fake_${id}`, ...(dot > 0 ? { namespace: name.slice(0, dot), name: name.slice(dot + 1) } : { name }), arguments: JSON.stringify(step.input), status: 'completed' };
      } else {
        const text = 'text' in step ? step.text : `FINAL: no tool fits; offered: ${tools.join(', ')}`;
        item = { type: 'message', id: `msg_fake_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let seq = 0;
      /** @type {(event: string, data: Record<string, unknown>) => void} */
      const send = (event, data) => void res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, sequence_number: seq++, ...data })}\n\n`);
      const response = { id: `resp_fake_${id}`, object: 'response', status: 'in_progress', model: body.model, output: /** @type {unknown[]} */ ([]) };
      send('response.created', { response });
      send('response.output_item.added', { output_index: 0, item: { ...item, ...(item.type === 'function_call' ? { arguments: '' } : { content: [] }), status: 'in_progress' } });
      send('response.output_item.done', { output_index: 0, item });
      const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
      send('response.completed', { response: { ...response, status: 'completed', output: [item], usage } });
      res.end();
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

/** @typedef {{ type?: string, name?: string, tools?: ResponsesTool[] }} ResponsesTool */

/**
 * The names of the tools a Responses request offers: functions by name, a namespace's as `<namespace>.<name>`.
 * @param {ResponsesTool[]} tools
 * @returns {string[]}
 */
function offered(tools) {
  return tools.flatMap((t) => (t.type === 'namespace' ? (t.tools ?? []).map((x) => `${t.name}.${x.name}`) : t.name ? [t.name] : []));
}

/**
 * The output of every function call a Responses request carries, by call id.
 * @param {Seen} request
 * @returns {Map<string, string>}
 */
export function callOutputs(request) {
  const out = new Map();
  for (const i of /** @type {{ type?: string, call_id?: string, output?: unknown }[]} */ (request.body.input ?? [])) {
    if (i.type === 'function_call_output') out.set(String(i.call_id), typeof i.output === 'string' ? i.output : JSON.stringify(i.output));
  }
  return out;
}
