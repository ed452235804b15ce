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
 * lets it through untouched. Only the exact names an agent gives the servers
 * this host serves count as zot's (vsCodeToolName, CLAUDE_MCP_PREFIX); any
 * other name, however like zot's, goes through the guards.
 *
 * A guard that could not run is said in the answer (`systemMessage`): one
 * that failed to start, and one still starting when the hook had to answer
 * (the hook waits a little longer than the host's ready grace for it, within
 * the agent's time). With `failClosed`, such a guard, or one that did not
 * answer its intercept, refuses a guarded call or prompt, naming why; without
 * it an intercept that times out allows, as in zot.
 */
import { boundedStringify, deeperThan, MAX_VALUE_DEPTH, type EventPayload, type InterceptableEvent, type JsonObject } from '../../protocol/index.js';
import type { InterceptResult } from '../agent.js';
import type { ExtensionView } from '../extension/view.js';
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
  /**
   * Whether zot's MCP server serves a tool under this name (its MCP-safe
   * name); with `extension`, whether that extension's own server (the
   * editor's `zot: <extension>`) does.
   */
  servesOverMcp(name: string, extension?: string): boolean;
  /** The extensions that may have an MCP server of their own in the editor. */
  readonly extensionNames?: readonly string[];
}

/** The hook's answer: printed as one JSON line. `{}` lets the agent go on as it would. */
export type HookOutput = Record<string, unknown>;

export interface HookOptions {
  /**
   * A guarded call or prompt (PreToolUse, UserPromptSubmit) whose guards could
   * not all run is refused: an extension that failed to start or was still
   * starting, an intercept that timed out or failed. Default: allowed, as zot
   * allows on an intercept that times out (a guard that did not start is said).
   */
  failClosed?: boolean;
  /** When the answer must be out (Date.now() time), such as the agent's hook timeout less a margin. Default: HOOK_ANSWER_MS from the call. */
  answerBy?: number;
}

/**
 * How long a guarded hook takes at most from its call to its answer: the
 * wait for extensions still starting and the intercepts. The hook command
 * spends the host's ready grace (3 s) before this, and its stop after it,
 * all inside the agent's 15 s.
 */
export const HOOK_ANSWER_MS = 5_500;
/** Of that, how long extensions still starting are waited for (the host's ready grace is over by then). */
export const HOOK_SETTLE_MS = 2_500;
/** What the answer keeps in hand before `answerBy`: writing it out. */
const ANSWER_MARGIN_MS = 250;

let ids = 0;

/** A guard the hook did not hear from, and why. */
interface Unheard { name: string; why: string }

/**
 * A hook on a running host: its events and intercepts, and a note for each
 * extension that failed to start or was still starting (a guard among them
 * did not run), after `notes`. See HookOptions for `failClosed`.
 */
export async function runHookOn(host: HostCalls, input: HookInput, servesOverMcp: (name: string, extension?: string) => boolean, notes: readonly string[] = [], options: HookOptions = {}): Promise<HookOutput> {
  const started = Date.now();
  const answerBy = Math.min(started + HOOK_ANSWER_MS, (options.answerBy ?? Infinity) - ANSWER_MARGIN_MS);
  const event: InterceptableEvent = input.event === 'UserPromptSubmit' ? 'before_agent_start' : 'tool_call';
  const unanswered: Unheard[] = [];
  const late: Unheard[] = [];
  const hookHost: HookHost = {
    emit: (e, payload) => host.emit(e, payload),
    intercept: (e, payload) => interceptHeard(host, e, payload, answerBy, unanswered, late),
    // A tool of an extension's own server is zot's only where that extension holds the tool.
    servesOverMcp: (name, extension) => servesOverMcp(name, extension) && (extension === undefined || host.findTool(name)?.extension === extension),
    extensionNames: host.extensions.map((rt) => rt.name),
  };
  // Where a guard decides (not for zot's own tools: the MCP path guards them), one still on its way is waited for a little.
  const guarded = failsClosed(input.event) && !(input.event === 'PreToolUse' && zotMcpTool(input.toolName!, hookHost));
  if (guarded) await settled(host, Math.min(started + HOOK_SETTLE_MS, answerBy));
  const unable = host.extensions.flatMap((rt) => {
    const why = guarded ? notRunning(rt, event) : rt.status.kind === 'failed' ? failedWhy(rt) : undefined;
    return why === undefined ? [] : [{ name: rt.name, why }];
  });
  const output = await runHook(hookHost, input, [...notes, ...unable.map((u) => `zot: extension "${u.name}" ${u.why}; if it guards tool calls, it did not run`)]);
  if (late.length) output.systemMessage = [output.systemMessage, ...late.map((u) => `zot: extension "${u.name}" ${u.why}; its verdict did not count`)].filter(Boolean).join('\n');
  const couldNot = [...unable, ...unanswered, ...late];
  if (!guarded || !options.failClosed || !couldNot.length || refuses(output)) return output;
  const reason = `zot: refused, for not every guard could run (fail-closed): ${couldNot.map((u) => `extension "${u.name}" ${u.why}`).join('; ')}`;
  return refusal(input, reason, output.systemMessage);
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
 * The names VS Code's agent knows zot's MCP servers by, as it makes its tool
 * names of them: the server's announced title (src/mcp/tools.ts
 * serverIdentity), else its label (src/vscode/mcp/mcpProvider.ts), which it
 * lower-cases: "zot extensions" for the one server of every extension,
 * "zot: <extension>" for an extension's own.
 */
const ONE_SERVER = 'zot extensions';
const serverOf = (extension: string): string => `zot: ${extension}`;

/**
 * Claude Code's names for the tools of zot's MCP server: `mcp__<server>__<tool>`,
 * the server being the name the user gave it in Claude Code's MCP settings.
 * Only `zot` counts (`claude mcp add zot -- zot-host mcp`): under any other
 * name the agent's call goes through the guards on the hook path too.
 */
export const CLAUDE_MCP_PREFIX = 'mcp__zot__';

/**
 * The name VS Code's agent gives tool `tool` of the MCP server named `server`
 * (McpPrefixGenerator and McpTool in VS Code's mcpServer.ts): `mcp_`, the
 * server's name lower-cased with each run of characters other than
 * `a-z0-9_.-` made `_` and cut to 13 characters, `_`, the tool's name; every
 * `.` made `_`, and the whole cut to 64 characters. A second server whose
 * name cuts the same gets a number before the `_` (`mcp_zot_extensio2_`):
 * that name is not zot's here, so its tools go through the guards on the hook
 * path too.
 */
export function vsCodeToolName(server: string, tool: string): string {
  return `mcp_${server.toLowerCase().replace(/[^a-z0-9_.-]+/g, '_').slice(0, 13)}_${tool}`.replaceAll('.', '_').slice(0, 64);
}

/**
 * Whether the agent names a tool of zot's own MCP servers: exactly the name
 * VS Code gives a tool of the one server, or of an extension's own server that
 * this extension holds, or Claude Code's `mcp__zot__<tool>`; and a tool that
 * server serves. A name only like these (`mcp__zotero__…`,
 * `mcp_github_zot_…`, a cut VS Code did not make) is not zot's.
 */
function zotMcpTool(name: string, host: HookHost): boolean {
  if (name.startsWith(CLAUDE_MCP_PREFIX)) {
    const tool = name.slice(CLAUDE_MCP_PREFIX.length);
    return tool !== '' && host.servesOverMcp(tool);
  }
  const servers: [string, string | undefined][] = [[ONE_SERVER, undefined], ...(host.extensionNames ?? []).map((e): [string, string] => [serverOf(e), e])];
  for (const [server, extension] of servers) {
    const prefix = vsCodeToolName(server, '');
    if (!name.startsWith(prefix)) continue;
    const tool = name.slice(prefix.length);
    if (tool !== '' && vsCodeToolName(server, tool) === name && host.servesOverMcp(tool, extension)) return true;
  }
  return false;
}

/**
 * On its way to serving: the hook may yet hear from it if it waits (its
 * start being checked, before hello, registering, restarting after a crash).
 */
function onItsWay(rt: ExtensionView): boolean {
  const s = rt.status;
  if (s.kind === 'running') return s.readiness === 'registering' || s.readiness === 'timed_out';
  return s.kind === 'checking' || s.kind === 'starting' || s.kind === 'restarting' || s.kind === 'lost';
}

/** Resolves once no extension is on its way, or at `until` (Date.now() time). */
function settled(host: HostCalls, until: number): Promise<void> {
  const waiting = (): boolean => host.extensions.some(onItsWay);
  if (!waiting() || until <= Date.now()) return Promise.resolve();
  return new Promise((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const timer = setTimeout(finish, until - Date.now());
    const sub = host.onDidChangeState(() => {
      if (!waiting()) finish();
    });
  });
}

const failedWhy = (rt: ExtensionView): string => `could not be started (${rt.error ?? 'failed'})`;

/** Why an extension is not there to be asked `event`'s intercept, or undefined when it is or would not be (held, disabled, stopped by the user). */
function notRunning(rt: ExtensionView, event: InterceptableEvent): string | undefined {
  const s = rt.status;
  switch (s.kind) {
    case 'failed': return failedWhy(rt);
    case 'checking': return 'was still being checked before its start';
    case 'starting': return 'was still starting (it had not said hello)';
    // Asked already if it subscribed in time: only one without the intercept yet missed it.
    case 'running': return onItsWay(rt) && !rt.intercepts.has(event) ? 'was still starting (it had not finished registering)' : undefined;
    case 'restarting': return `was restarting (${s.message})`;
    case 'lost': return `had lost its connection (${s.reason})`;
    default: return undefined;
  }
}

/**
 * The host's intercept, heard: a guard that timed out, answered something
 * unusable or went away while asked goes to `unanswered` (the host allows on
 * each, as zot does, and says it among the extension's problems); at
 * `answerBy` the hook stops waiting, and the guard being asked and those
 * after it go to `late`.
 */
async function interceptHeard(host: HostCalls, event: InterceptableEvent, payload: EventPayload, answerBy: number, unanswered: Unheard[], late: Unheard[]): Promise<InterceptResult> {
  const problemsOf = (rt: ExtensionView): number => rt.problems.length + rt.droppedProblems;
  const guards = host.extensions.filter((rt) => rt.connected && rt.intercepts.has(event)).map((rt) => ({ rt, seen: problemsOf(rt) }));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, answerBy - Date.now()))));
  const verdict = await Promise.race([host.intercept(event, payload), deadline]);
  clearTimeout(timer);
  if (verdict === undefined) {
    const asking = guards.findIndex((g) => g.rt.pendingCount > 0);
    for (const { rt } of guards.slice(Math.max(0, asking))) late.push({ name: rt.name, why: `had not answered the ${event} intercept when the hook had to answer` });
    return { blocked: false, payload };
  }
  if (verdict.blocked) return verdict;
  for (const { rt, seen } of guards) {
    const added = problemsOf(rt) - seen;
    const said = added > 0 ? rt.problems.slice(-added).map((p) => p.message).find((m) => m.includes(`the ${event} intercept`)) : undefined;
    if (said !== undefined) {
      const what = said.replace(/ \(treated as allow\)|; treated as allow$/, '');
      unanswered.push({ name: rt.name, why: what.startsWith('did not answer') ? what : `gave no usable answer to the ${event} intercept (${what})` });
    } else if (!rt.connected) unanswered.push({ name: rt.name, why: `went away while asked the ${event} intercept` });
  }
  return verdict;
}

/** Whether the answer refuses the call or prompt already. */
function refuses(o: HookOutput): boolean {
  const specific = o.hookSpecificOutput as { permissionDecision?: unknown } | undefined;
  return specific?.permissionDecision === 'deny' || o.permissionDecision === 'deny' || o.decision === 'block';
}

/** A guarded call or prompt refused with `reason`, in the input's dialect; `said` kept as the system message. */
export function refusal(input: HookInput, reason: string, said?: unknown): HookOutput {
  const base: HookOutput = said === undefined ? {} : { systemMessage: said };
  if (input.event === 'UserPromptSubmit') return { ...base, decision: 'block', reason };
  const out: HookOutput = { ...base, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
  return input.dialect === 'copilot' ? forCopilot(out) : out;
}

/** A tool's response as a `tool_result` event carries it: zot's content blocks and is_error. */
function resultFields(response: unknown, failed: boolean | undefined): { is_error: boolean; content: { type: 'text'; text: string }[] } {
  const o = typeof response === 'object' && response !== null && !Array.isArray(response) ? (response as Record<string, unknown>) : undefined;
  const isError = failed ?? (o?.is_error === true || o?.isError === true);
  const text = typeof response === 'string' ? response : response === undefined ? '' : boundedStringify(response);
  return { is_error: isError, content: text ? [{ type: 'text', text }] : [] };
}
