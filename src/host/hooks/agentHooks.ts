/**
 * Agent hooks (VS Code's agent, Claude Code, Copilot CLI): one hook input in,
 * zot's events and intercepts for it, one hook output back. What each hook is
 * in zot's terms:
 *
 * - `PreToolUse`: the `tool_call` event with the agent's own args, then the
 *   `tool_call` intercepts in load order; the first block wins and denies the
 *   call with its reason; `modified_args` becomes `updatedInput` (with `ask`,
 *   so the user sees the changed call: a guard's rewrite never approves a call
 *   by itself); an intercept that times out or fails allows, as in zot.
 * - `PostToolUse`: the `tool_result` event (the zot family's name for it).
 * - `SessionStart`: `session_start`.
 * - `UserPromptSubmit`: the `before_agent_start` intercept with the prompt as
 *   `text`; a block stops the prompt with its reason.
 * - `Stop`: `turn_end` with zot's stop name `end` (the agent's last step).
 *
 * Copilot CLI names its hooks in lowerCamelCase (`preToolUse`,
 * `userPromptSubmitted`…), sends a tool's args as a JSON string (`toolArgs`)
 * and reads the decision at the top level of the answer; its input is known
 * by that shape and answered in it. It applies no changed args: a guard's
 * rewrite is a refusal there that names the args the guard wants.
 *
 * A zot tool the agent calls through zot's own MCP server is intercepted once,
 * on the MCP path (where its real name and rewritten args reach it): the hook
 * lets it through untouched.
 */
import { boundedStringify, deeperThan, MAX_VALUE_DEPTH, type EventPayload, type InterceptableEvent, type JsonObject } from '../../protocol/index.js';
import type { InterceptResult } from '../agent.js';
import type { HostCalls } from '../zotHost.js';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Hook input larger than this is refused (a tool's whole output may ride along in PostToolUse). */
export const MAX_HOOK_INPUT_BYTES = 16 * 1024 * 1024;

/** One hook input, read from either spelling (VS Code and Claude Code send snake_case; VS Code's docs show camelCase). */
export interface HookInput {
  event: HookEvent;
  toolName?: string;
  toolInput?: JsonObject;
  toolUseId?: string;
  toolResponse?: unknown;
  /** Whether the tool failed, where the input says it apart from the response (Copilot CLI's `resultType`). */
  toolFailed?: boolean;
  prompt?: string;
  cwd?: string;
  /** Whose input this is, and so in which shape the answer goes: VS Code's and Claude Code's, or Copilot CLI's. */
  dialect: 'hooks' | 'copilot';
}

export type HookParse = { ok: true; input: HookInput } | { ok: false; error: string };

/** Whether a hook whose input cannot be read must stop what it guards (exit 2) rather than report an error and let it go on. */
export const failsClosed = (event: HookEvent): boolean => event === 'PreToolUse' || event === 'UserPromptSubmit';

/** Copilot CLI's names of the same hooks. */
const COPILOT_EVENTS: Readonly<Record<string, HookEvent>> = { preToolUse: 'PreToolUse', postToolUse: 'PostToolUse', sessionStart: 'SessionStart', userPromptSubmitted: 'UserPromptSubmit' };

export function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** The hook a name means, in VS Code's and Claude Code's spelling or Copilot CLI's; undefined for any other. */
export function hookEventOf(name: string): HookEvent | undefined {
  return isHookEvent(name) ? name : Object.hasOwn(COPILOT_EVENTS, name) ? COPILOT_EVENTS[name] : undefined;
}

/** Every hook name the CLI takes, both spellings. */
export const HOOK_EVENT_NAMES: readonly string[] = [...HOOK_EVENTS, ...Object.keys(COPILOT_EVENTS)];

/** Reads the hook input for `event`; says what is wrong and where when it cannot. */
export function parseHookInput(event: HookEvent, text: string): HookParse {
  if (Buffer.byteLength(text) > MAX_HOOK_INPUT_BYTES) return { ok: false, error: `the hook input is larger than ${MAX_HOOK_INPUT_BYTES} bytes` };
  if (!text.trim()) return { ok: false, error: 'no hook input on stdin (the agent writes one JSON object there)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `the hook input is not valid JSON: ${(e as Error).message.replace(/\s*\n[\s\S]*$/, '')}` };
  }
  return hookInputOf(event, value);
}

/** Reads an already parsed hook input for `event` (what the editor's hook endpoint receives). */
export function hookInputOf(event: HookEvent, value: unknown): HookParse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: `the hook input must be a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}` };
  if (deeperThan(value, MAX_VALUE_DEPTH)) return { ok: false, error: `the hook input is nested deeper than ${MAX_VALUE_DEPTH} levels` };
  const o = value as Record<string, unknown>;
  const pick = (snake: string, camel: string): unknown => (o[snake] !== undefined ? o[snake] : o[camel]);
  const named = pick('hook_event_name', 'hookEventName');
  if (named !== undefined && (typeof named !== 'string' || hookEventOf(named) !== event)) return { ok: false, error: `the hook input is for ${JSON.stringify(named)}, but this hook was called for ${event}` };
  // Copilot CLI's input: no event name, a timestamp, a tool's args as a JSON string.
  const copilot = named === undefined && (typeof o.toolArgs === 'string' || (typeof o.timestamp === 'number' && o.tool_input === undefined && o.toolInput === undefined));
  const input: HookInput = { event, dialect: copilot ? 'copilot' : 'hooks' };
  const cwd = o.cwd;
  if (typeof cwd === 'string' && cwd) input.cwd = cwd;
  if (event === 'PreToolUse' || event === 'PostToolUse') {
    const name = pick('tool_name', 'toolName');
    if (typeof name !== 'string' || !name) return { ok: false, error: `"tool_name" must be a non-empty string in ${event} input` };
    input.toolName = name;
    let args = pick('tool_input', 'toolInput');
    if (copilot && o.toolArgs !== undefined) {
      const read = copilotArgs(o.toolArgs, event);
      if (!read.ok) return read;
      args = read.args;
    }
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) return { ok: false, error: `"tool_input" must be a JSON object in ${event} input, not ${Array.isArray(args) ? 'an array' : `a ${typeof args}`}` };
    input.toolInput = (args ?? {}) as JsonObject;
    const id = pick('tool_use_id', 'toolUseId');
    if (typeof id === 'string' && id) input.toolUseId = id;
    if (event === 'PostToolUse' && copilot) Object.assign(input, copilotResult(o.toolResult));
    else if (event === 'PostToolUse') input.toolResponse = pick('tool_response', 'toolResponse');
  }
  if (event === 'UserPromptSubmit') {
    const prompt = o.prompt;
    if (typeof prompt !== 'string') return { ok: false, error: '"prompt" must be a string in UserPromptSubmit input' };
    input.prompt = prompt;
  }
  return { ok: true, input };
}

/** Copilot CLI's `toolArgs`: a JSON object, written as a string. */
function copilotArgs(raw: unknown, event: HookEvent): { ok: true; args: unknown } | { ok: false; error: string } {
  if (typeof raw !== 'string') return { ok: false, error: `"toolArgs" must be a string of JSON in ${event} input, not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : `a ${typeof raw}`}` };
  if (!raw.trim()) return { ok: true, args: {} };
  try {
    const args: unknown = JSON.parse(raw);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, error: `"toolArgs" must hold a JSON object in ${event} input, not ${Array.isArray(args) ? 'an array' : args === null ? 'null' : `a ${typeof args}`}` };
    if (deeperThan(args, MAX_VALUE_DEPTH)) return { ok: false, error: `"toolArgs" is nested deeper than ${MAX_VALUE_DEPTH} levels` };
    return { ok: true, args };
  } catch (e) {
    return { ok: false, error: `"toolArgs" is not valid JSON: ${(e as Error).message.replace(/\s*\n[\s\S]*$/, '')}` };
  }
}

/** Copilot CLI's `toolResult` (`resultType`, `textResultForLlm`) as the response and error flag of a `tool_result` event. */
function copilotResult(result: unknown): Pick<HookInput, 'toolResponse' | 'toolFailed'> {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return { toolResponse: result };
  const r = result as Record<string, unknown>;
  return { toolResponse: typeof r.textResultForLlm === 'string' ? r.textResultForLlm : result, toolFailed: r.resultType === 'failure' || r.resultType === 'denied' };
}

/** What the hook needs of a host: zot's events and intercepts, and which tools it serves over MCP. */
export interface HookHost {
  emit(event: string, payload?: EventPayload): void;
  intercept(event: InterceptableEvent, payload: EventPayload): Promise<InterceptResult>;
  /** Whether zot's MCP server serves a tool under this name (its MCP-safe name). */
  servesOverMcp(name: string): boolean;
}

/** The hook's answer: printed as one JSON line. `{}` lets the agent go on as it would. */
export type HookOutput = Record<string, unknown>;

let ids = 0;

/**
 * A hook on a running host: its events and intercepts, and a note for each
 * extension that failed to start (a guard among them did not run), after `notes`.
 */
export function runHookOn(host: HostCalls, input: HookInput, servesOverMcp: (name: string) => boolean, notes: readonly string[] = []): Promise<HookOutput> {
  const failed = host.extensions
    .filter((rt) => rt.state === 'failed')
    .map((rt) => `zot: extension "${rt.name}" could not be started (${rt.error ?? 'failed'}); if it guards tool calls, it did not run`);
  return runHook({ emit: (e, payload) => host.emit(e, payload), intercept: (e, payload) => host.intercept(e, payload), servesOverMcp }, input, [...notes, ...failed]);
}

export async function runHook(host: HookHost, input: HookInput, notes: readonly string[] = []): Promise<HookOutput> {
  const output = await answer(host, input, notes);
  return input.dialect === 'copilot' ? forCopilot(output) : output;
}

/**
 * An answer in Copilot CLI's shape: the decision at the top level, and only a
 * refusal (it applies neither changed args nor "ask"); a guard's rewrite is a
 * refusal that names the args the guard wants, so the model can call again with them.
 */
function forCopilot(output: HookOutput): HookOutput {
  const { hookSpecificOutput, ...rest } = output;
  const specific = hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string; updatedInput?: unknown } | undefined;
  if (specific?.permissionDecision === 'deny') return { ...rest, permissionDecision: 'deny', permissionDecisionReason: specific.permissionDecisionReason };
  if (specific?.updatedInput !== undefined) {
    return { ...rest, permissionDecision: 'deny', permissionDecisionReason: `a zot extension changed the arguments of this call to ${boundedStringify(specific.updatedInput)}; this agent cannot run a changed call, so call the tool again with those arguments` };
  }
  return rest;
}

async function answer(host: HookHost, input: HookInput, notes: readonly string[]): Promise<HookOutput> {
  const out: HookOutput = {};
  // Guards that could not be reached are said, never passed over in silence.
  if (notes.length && failsClosed(input.event)) out.systemMessage = notes.join('\n');
  switch (input.event) {
    case 'PreToolUse': {
      const name = input.toolName!;
      if (zotMcpTool(name, host)) return out;
      const toolId = input.toolUseId ?? `hook-${process.pid}-${++ids}`;
      const args = input.toolInput ?? {};
      host.emit('tool_call', { tool_id: toolId, tool_name: name, tool_args: args });
      const verdict = await host.intercept('tool_call', { tool_id: toolId, tool_name: name, tool_args: args });
      if (verdict.blocked) {
        return { ...out, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: verdict.reason } };
      }
      const changed = verdict.payload.tool_args;
      if (changed && boundedStringify(changed) !== boundedStringify(args)) {
        return { ...out, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'a zot extension changed the arguments of this call', updatedInput: changed } };
      }
      return out;
    }
    case 'PostToolUse': {
      const name = input.toolName!;
      if (zotMcpTool(name, host)) return out;
      host.emit('tool_result', { tool_id: input.toolUseId ?? `hook-${process.pid}-${++ids}`, tool_name: name, tool_args: input.toolInput ?? {}, ...resultFields(input.toolResponse, input.toolFailed) });
      return out;
    }
    case 'SessionStart':
      host.emit('session_start');
      return out;
    case 'UserPromptSubmit': {
      const verdict = await host.intercept('before_agent_start', { text: input.prompt ?? '' });
      return verdict.blocked ? { ...out, decision: 'block', reason: verdict.reason } : out;
    }
    case 'Stop':
      host.emit('turn_end', { stop: 'end' });
      return out;
  }
}

/**
 * Whether the agent names a tool of zot's own MCP server: VS Code's
 * `mcp_<server label>_<tool>` or Claude Code's `mcp__<server>__<tool>`, with
 * a server named for zot and a tool that server serves.
 */
function zotMcpTool(name: string, host: HookHost): boolean {
  const m = /^mcp_{1,2}(.+)$/.exec(name);
  if (!m) return false;
  const rest = m[1]!;
  for (let i = rest.indexOf('_'); i > 0; i = rest.indexOf('_', i + 1)) {
    const server = rest.slice(0, i).replace(/_+$/, '');
    const tool = rest.slice(i + 1).replace(/^_+/, '');
    if (/zot/i.test(server) && tool && host.servesOverMcp(tool)) return true;
  }
  return false;
}

/** A tool's response as a `tool_result` event carries it: zot's content blocks and is_error. */
function resultFields(response: unknown, failed: boolean | undefined): { is_error: boolean; content: { type: 'text'; text: string }[] } {
  const o = typeof response === 'object' && response !== null && !Array.isArray(response) ? (response as Record<string, unknown>) : undefined;
  const isError = failed ?? (o?.is_error === true || o?.isError === true);
  const text = typeof response === 'string' ? response : response === undefined ? '' : boundedStringify(response);
  return { is_error: isError, content: text ? [{ type: 'text', text }] : [] };
}
