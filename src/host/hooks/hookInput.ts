/**
 * An agent hook's input, read: the hook names in both spellings (VS Code's
 * and Claude Code's, Copilot CLI's), either spelling of the fields, and what
 * is wrong and where when it cannot be read.
 */
import { deeperThan, MAX_VALUE_DEPTH, type JsonObject } from '../../protocol/index.js';

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
  /** The agent's session, which every zot event then names. */
  sessionId?: string;
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
  const session = pick('session_id', 'sessionId');
  if (typeof session === 'string' && session) input.sessionId = session;
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

/** Copilot CLI's `toolArgs`: a JSON object, written as a string as its reference documents it, or the object itself as 1.0.102 sends it. */
function copilotArgs(raw: unknown, event: HookEvent): { ok: true; args: unknown } | { ok: false; error: string } {
  const given = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
  if (typeof raw !== 'string' && !given) return { ok: false, error: `"toolArgs" must be a JSON object, or a string of one, in ${event} input, not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : `a ${typeof raw}`}` };
  if (typeof raw === 'string' && !raw.trim()) return { ok: true, args: {} };
  try {
    const args: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
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
