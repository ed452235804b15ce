/**
 * zot commands as MCP prompts: every active command is a prompt of the same
 * name with one optional `args` string, and getting the prompt runs the
 * command. A `prompt` action gives a user message with its text; `display`
 * and `insert` give their text as an assistant message; an `open_panel`
 * opens the panel where the host can show one; a failure is an MCP error
 * that says what went wrong; a response with nothing to do gives no message.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import { carryOut, outcomeLabel, toolPromptResult, type CommandOutcome, type HostCalls } from '../../host/index.js';
import { withSignal, type HostSource } from './source.js';

/** The active commands as prompts; only those of extension `scope` when given. */
export function listPrompts(host: HostCalls, scope?: string): Prompt[] {
  return host.commands().filter((c) => c.active && (scope === undefined || c.extension === scope)).map((c) => ({
    name: c.name,
    description: c.description || `/${c.name} (from the zot extension ${c.extension})`,
    arguments: [{ name: 'args', description: `What to type after /${c.name}`, required: false }],
  }));
}

export function registerPrompts(server: Server, source: HostSource, scope?: string): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    await source.host.whenLoaded();
    return { prompts: listPrompts(source.host, scope) };
  });

  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    getPrompt(source, request.params.name, request.params.arguments?.args ?? '', extra.signal, scope, (code, message) => new McpError(code, message)),
  );
}

/** How an SDK makes the JSON-RPC error a failed prompt answers with. */
export type Fail = (code: number, message: string) => Error;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** prompts/get in either MCP era: runs the command (cancelled when `signal` aborts) and gives what it did as messages. */
export async function getPrompt(source: HostSource, name: string, args: string, signal: AbortSignal, scope: string | undefined, fail: Fail): Promise<GetPromptResult> {
  const host = source.host;
  await host.whenLoaded();
  const command = host.findCommand(name);
  if (!command || (scope !== undefined && command.extension !== scope)) throw fail(INVALID_PARAMS, `no active zot command "${name}"; prompts/list names the ones there are`);
  const outcome = await withSignal(signal, (token) => host.invokeCommand(name, args, { token }));
  return toPromptResult(host, name, outcome, fail, signal);
}

async function toPromptResult(host: HostCalls, name: string, o: CommandOutcome, fail: Fail, signal: AbortSignal): Promise<GetPromptResult> {
  if (o.outcome !== 'completed') throw fail(INTERNAL_ERROR, `/${name} ${outcomeLabel(o.outcome)}: ${o.message}`);
  const text = (role: 'user' | 'assistant', value: string, description: string): GetPromptResult => ({
    description,
    messages: [{ role, content: { type: 'text', text: value } }],
  });
  const extension = o.extension;
  // carryOut does as zot: an action it does not know is an error naming it, a prompt empty after trimming does nothing.
  return carryOut<Promise<GetPromptResult>>(o.response, {
    error: async (m) => {
      throw fail(INTERNAL_ERROR, `/${name} failed: ${m}`);
    },
    prompt: async (t) => text('user', t, `/${name} asks the model`),
    display: async (t) => text('assistant', t, `/${name} shows this text`),
    insert: async (t) => text('assistant', t, `/${name} inserts this text`),
    openPanel: async (spec) => {
      const ext = host.get(extension);
      if (!host.interactive || !ext) throw fail(INTERNAL_ERROR, `/${name} opens a panel, which this host cannot show`);
      // The panel this response carries, opened once: the response is not carried out a second time.
      await host.openPanel(ext, spec);
      return text('assistant', `Opened the panel of /${name}.`, `/${name} opened a panel`);
    },
    // zot's tool_prompt: the tool runs through the door now; the client's model reads its result, then the prompt.
    toolPrompt: async (p) => {
      const ran = await withSignal(signal, (token) => host.runToolCall(p.tool, p.args, { token }));
      return {
        description: `/${name} ran ${p.tool} and asks the model`,
        messages: [
          { role: 'user', content: { type: 'text', text: `Result of the tool ${p.tool} (run for this prompt):\n${toolPromptResult(ran)}` } },
          { role: 'user', content: { type: 'text', text: p.prompt } },
        ],
      };
    },
    noop: async () => ({ description: o.response.action === 'prompt' ? `/${name} returned an empty prompt` : `/${name} did nothing`, messages: [] }),
  });
}
