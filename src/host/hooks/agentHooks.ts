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
 *   A refusal is reported as zot reports a guard's block: `permission_decision`
 *   (`denied`, `policy`) and a `tool_result` event with status `blocked`. The
 *   hook knows only the guards' part, so it reports no approval.
 * - `PostToolUse`: the `tool_result` event, in the same fields as every other
 *   (docs/ZOT.md 3.3, with terva's `text` and `is_error`).
 * - `SessionStart`: `session_start`; every event names the agent's session.
 * - `UserPromptSubmit`: terva's `user_message` intercept (the guard on a
 *   prompt: a block stops it with its reason), then zot's `user_prompt_submit`
 *   and terva's `user_message` events. zot's `before_agent_start` is not asked:
 *   the agent owns its system prompt, and zot never lets that hook refuse.
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
 * it an intercept that times out allows, as in zot. A guard still being asked
 * when the hook must answer (its own time not yet up: a slow window or start
 * spent the hook's) refuses the call or prompt either way, as the hook
 * command does at its budget's end.
 */
import { boundedStringify, sameJson, type ContentBlock, type InterceptableEvent, type InterceptMap, type JsonObject } from '../../protocol/index.js';
import { failsClosed, type HookInput } from './hookInput.js';
import { zotMcpTool, type McpToolNames } from './mcpNames.js';
import { clearToolCall, reportBlocked, toolResultEvent, type Guards, type InterceptResult } from '../agent/agentPath.js';
import type { ExtensionView } from '../extension/view.js';
import { isOnItsWay, isServing } from '../extension/state.js';
import type { HostCalls } from '../zotHost.js';

export * from './hookInput.js';
export { CLAUDE_MCP_PREFIX, vsCodeToolName } from './mcpNames.js';

/** What the hook needs of a host: zot's events and intercepts, and which tools it serves over MCP. */
export interface HookHost extends McpToolNames, Guards {
  /** The agent's session, named by the hook's input; announced on its SessionStart. */
  adoptSession(input: HookInput): void;
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
  const event: InterceptableEvent = input.event === 'UserPromptSubmit' ? 'user_message' : 'tool_call';
  const unanswered: Unheard[] = [];
  const late: Unheard[] = [];
  const hookHost: HookHost = {
    // Sessions are the agent's (adoptSession): the guards' path sends none of their events.
    emit: (e, payload, origin) => void (e !== 'session_start' && e !== 'session_end' && host.emit(e as Parameters<HostCalls['emit']>[0], payload as Parameters<HostCalls['emit']>[1], origin)),
    // Every hook goes through interceptHeard, which also says which guards did not answer.
    intercepts: () => true,
    intercept: (e, payload) => interceptHeard(host, e, payload, answerBy, unanswered, late),
    adoptSession: (i) => host.adoptSession({ ...(i.sessionId !== undefined && { session_id: i.sessionId }), ...(i.cwd !== undefined && { cwd: i.cwd }) }, i.event === 'SessionStart'),
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
  // A guard still inside its own time when the hook's ran out (a slow window or start before it) is not passed over: the call is refused.
  if (late.length && !refuses(output)) {
    return refusal(input, `zot: refused, for the hook ran out of time before every guard answered: ${late.map((u) => `extension "${u.name}" ${u.why}`).join('; ')}`, output.systemMessage);
  }
  const couldNot = [...unable, ...unanswered];
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
  host.adoptSession(input);
  // Guards that could not be reached are said, never passed over in silence.
  if (notes.length && failsClosed(input.event)) out.systemMessage = notes.join('\n');
  switch (input.event) {
    case 'PreToolUse': {
      const name = input.toolName!;
      if (zotMcpTool(name, host)) return out;
      const toolId = input.toolUseId ?? `hook-${process.pid}-${++ids}`;
      const args = input.toolInput ?? {};
      // The same steps as before a zot tool call: args checked, the tool_call event, the intercepts.
      const cleared = await clearToolCall(host, toolId, name, args);
      if (!cleared.cleared) {
        reportBlocked(host.emit, toolId, name, cleared.args ?? args, cleared.reason);
        return { ...out, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: cleared.reason } };
      }
      const changed = cleared.args;
      // A normaliser that answers the args as they came (in any key order) changed nothing: no question for the user.
      if (!sameJson(changed, args)) {
        return { ...out, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'a zot extension changed the arguments of this call', updatedInput: changed } };
      }
      return out;
    }
    case 'PostToolUse': {
      const name = input.toolName!;
      if (zotMcpTool(name, host)) return out;
      const { isError, content } = resultOf(input.toolResponse, input.toolFailed);
      host.emit('tool_result', toolResultEvent(input.toolUseId ?? `hook-${process.pid}-${++ids}`, name, input.toolInput ?? {}, { outcome: 'completed', extension: '', isError, content, message: '' }));
      return out;
    }
    case 'SessionStart':
      return out;
    case 'UserPromptSubmit': {
      const prompt = input.prompt ?? '';
      const verdict = await host.intercept('user_message', { text: prompt });
      if (verdict.blocked) return { ...out, decision: 'block', reason: verdict.reason };
      // The agent sends its own prompt: the events say what the model receives, and a guard's rewrite, which cannot reach it, is said.
      host.emit('user_prompt_submit', prompt ? { text: prompt } : {});
      host.emit('user_message', { text: prompt });
      if (verdict.payload.text === prompt) return out;
      return { ...out, systemMessage: [out.systemMessage, 'zot: an extension rewrote this prompt, but this agent sends prompts as typed; the rewrite was not applied'].filter(Boolean).join('\n') };
    }
    case 'Stop':
      host.emit('turn_end', { stop: 'end' });
      return out;
  }
}

/** Resolves once no extension is on its way, or at `until` (Date.now() time). */
function settled(host: HostCalls, until: number): Promise<void> {
  const waiting = (): boolean => host.extensions.some((rt) => isOnItsWay(rt.status));
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
    case 'running': return isOnItsWay(s) && !rt.intercepts.has(event) ? 'was still starting (it had not finished registering)' : undefined;
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
async function interceptHeard<K extends InterceptableEvent>(host: HostCalls, event: K, payload: InterceptMap[K], answerBy: number, unanswered: Unheard[], late: Unheard[]): Promise<InterceptResult<K>> {
  const guards = host.extensions.filter((rt) => isServing(rt.status) && rt.intercepts.has(event));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, answerBy - Date.now()))));
  const verdict = await Promise.race([host.intercept(event, payload), deadline]);
  clearTimeout(timer);
  if (verdict === undefined) {
    const asking = guards.findIndex((rt) => rt.pendingCount > 0);
    for (const rt of guards.slice(Math.max(0, asking))) late.push({ name: rt.name, why: `had not answered the ${event} intercept when the hook had to answer` });
    return { blocked: false, payload };
  }
  if (verdict.blocked) return verdict;
  // How each guard's intercept ended, as the host reports it: one that allowed for want of an answer is said.
  for (const { by, ending } of verdict.heard ?? []) {
    if (ending.kind === 'answered') continue;
    unanswered.push({ name: by, why: ending.kind === 'timed_out' || ending.kind === 'gone' ? ending.said : `gave no usable answer to the ${event} intercept (${ending.said})` });
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

/** A tool's response as the agent reports it, as zot's content blocks and whether it failed. */
function resultOf(response: unknown, failed: boolean | undefined): { isError: boolean; content: ContentBlock[] } {
  const o = typeof response === 'object' && response !== null && !Array.isArray(response) ? (response as Record<string, unknown>) : undefined;
  const isError = failed ?? (o?.is_error === true || o?.isError === true);
  const text = typeof response === 'string' ? response : response === undefined ? '' : boundedStringify(response);
  return { isError, content: text ? [{ type: 'text', text }] : [] };
}

export type { JsonObject };
