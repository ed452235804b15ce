/**
 * The agent-hook guard as a tool of zot's own MCP server, for harnesses
 * whose hooks can be an `mcp_tool` call into a connected server (Claude Code,
 * Codex): the guards run in the server's extensions, already started, so a
 * tool call costs no process start. Served only where the agent plugin asks
 * for it (GUARD_TOOL_ENV in the server's environment), never to an editor.
 *
 * The hook's `input` names the hook input's fields by interpolation
 * (`${tool_name}`; `${tool_input}` arrives as its JSON text), and the
 * tool's text answer is the hook's output (src/host/hooks), which the
 * harness reads as it reads a command hook's stdout. A model that calls the
 * tool itself only asks the guards, as a hook would, and reads their answer.
 */
import { GUARD_TOOL, GUARD_TOOL_ENV, HOOK_BUDGET_MS, hookEventOf, hookInputOf, runHookOn } from '../../host/index.js';
import type { HostSource } from '../shared/source.js';
import { servedTools } from '../shared/toolNames.js';

/** Whether this server serves the guard tool (a call named for it is for it only then). */
export const servesGuardTool = (env: NodeJS.ProcessEnv = process.env): boolean => env[GUARD_TOOL_ENV] === '1';

/** A JSON Schema's property: a type, and maybe what it holds. */
type Prop = { type: string; description?: string };

/** The guard tool as tools/list lists it; none where it is not served. */
export function guardTools(): { name: string; description: string; inputSchema: { type: 'object'; properties: Record<string, Prop>; required: string[] } }[] {
  if (!servesGuardTool()) return [];
  return [{
    name: GUARD_TOOL,
    description: 'For agent hooks only (an mcp_tool hook of zot\'s agent plugin): asks zot\'s guards about a tool call or prompt, answering as a hook answers. Not a tool to call for a task.',
    inputSchema: {
      type: 'object',
      properties: {
        hook_event_name: { type: 'string' }, tool_name: { type: 'string' }, tool_input: { type: 'string', description: 'the tool input as JSON' },
        tool_response: { type: 'string', description: 'the tool\'s response (PostToolUse), as JSON or text' }, tool_use_id: { type: 'string' }, prompt: { type: 'string' }, session_id: { type: 'string' }, cwd: { type: 'string' }, fail_closed: { type: 'boolean' },
      },
      required: ['hook_event_name'],
    },
  }];
}

/** The text result of a guard tool call: the hook's output, or why the input could not be read (an error result). */
export async function callGuardTool(source: HostSource, args: Record<string, unknown> | undefined, log: (line: string) => void = () => undefined): Promise<{ content: { type: 'text'; text: string }[]; isError?: boolean }> {
  const fail = (why: string): { content: { type: 'text'; text: string }[]; isError: true } => ({ content: [{ type: 'text', text: `${GUARD_TOOL}: ${why}` }], isError: true });
  const { fail_closed: failClosed, tool_input: toolInput, tool_response: toolResponse, ...rest } = args ?? {};
  const named = rest.hook_event_name;
  const event = typeof named === 'string' ? hookEventOf(named) : undefined;
  if (event === undefined) return fail(`hook_event_name must name a hook event, got ${String(JSON.stringify(named)).slice(0, 100)}`);
  let value: Record<string, unknown> = rest;
  if (toolInput !== undefined) {
    // Interpolated hook input gives the object as its JSON text; an object is taken as it is.
    try {
      value = { ...rest, tool_input: typeof toolInput === 'string' ? JSON.parse(toolInput) : toolInput };
    } catch (e) {
      return fail(`tool_input is not JSON (${(e as Error).message})`);
    }
  }
  // A tool's response may be text of its own: taken as JSON only when it is.
  if (toolResponse !== undefined) value.tool_response = typeof toolResponse === 'string' ? jsonOr(toolResponse) : toolResponse;
  const input = hookInputOf(event, value);
  if (!input.ok) return fail(input.error);
  const host = source.host;
  await host.whenLoaded();
  const output = await runHookOn(host, input.input, (tool, extension) => servedTools(host, false, extension).served.has(tool), [], { failClosed: failClosed === true, answerBy: Date.now() + HOOK_BUDGET_MS });
  log(`agent hook ${event} answered over MCP${input.input.event === 'PreToolUse' ? ` for ${input.input.toolName}` : ''}`);
  return { content: [{ type: 'text', text: JSON.stringify(output) }] };
}

function jsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
