/**
 * The agent's path into extensions: tool calls and commands routed to the
 * extension that holds the name, lifecycle events to their subscribers, and
 * intercepts asked in load order.
 */
import { boundedStringify, boundResult, deeperThan, MAX_VALUE_DEPTH, type ContentBlock, type EventMap, type EventName, type InterceptableEvent, type InterceptMap, type JsonObject, type PermissionDecision, type PermissionSource } from '../../protocol/index.js';
import { nextId } from '../connection/ids.js';
import { blocksText } from '../results/content.js';
import type { Lifecycle } from './lifecycle.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import { isServing } from '../extension/state.js';
import type { GuardEnding } from '../extension/calls.js';
import type { GuardedHostCall } from '../terva/services.js';
import type { PanelUI } from '../port.js';
import type { CallOptions, Timing } from '../options.js';
import { toolEnding, toolOutcome, type CommandOutcome, type ToolOutcome } from '../results/outcomes.js';
import type { Registry } from '../registry/registry.js';

/** How each guard asked ended, by extension, in the order asked. */
export interface Heard { by: string; ending: GuardEnding }

/**
 * An intercept's verdict: the payload as its interceptors left it, or the
 * first block (with the payload as it stood then); `heard`, how each guard
 * asked ended (an ending without an answer allows, as in zot).
 */
export type InterceptResult<K extends InterceptableEvent = InterceptableEvent> =
  | { blocked: false; payload: InterceptMap[K]; heard?: Heard[] }
  | { blocked: true; reason: string; by: string; payload: InterceptMap[K]; heard?: Heard[] };

/** Sends an event with its own payload; `origin`: the extension whose `call_tool` caused it. */
export type Emit = <K extends EventName>(event: K, payload: EventMap[K], origin?: string) => void;

/** What a tool call's guards are asked through: zot's events and intercepts. */
export interface Guards {
  emit: Emit;
  /** Whether any connected extension intercepts `event`: whether intercept() would ask anyone. */
  intercepts(event: InterceptableEvent): boolean;
  intercept<K extends InterceptableEvent>(event: K, payload: InterceptMap[K]): Promise<InterceptResult<K>>;
}

/** What is left of a tool call after its checks and its guards: the args to send, or why nothing is sent (`by`: the guard that blocked it; `args`: as they stood then). */
export type ClearedCall =
  | { cleared: true; args: JsonObject }
  | { cleared: false; reason: string; by?: string; args?: JsonObject };

/**
 * The steps before any tool call, the same for every caller (the agent's
 * turn, an MCP client, the palette, the CLI, the hook verb for another
 * agent's tools): the arguments checked first, so that nothing goes out
 * with arguments that cannot be sent; then the `tool_call` event with them
 * (unless the caller announced the call already); then the `tool_call`
 * intercepts in load order, whose first block wins and whose
 * `modified_args` chain. Without an interceptor the answer is at once (no
 * promise): most calls have none, and this is every call's path.
 */
export function clearToolCall(guards: Guards, toolId: string, name: string, args: unknown, announced = false, origin?: string): ClearedCall | Promise<ClearedCall> {
  const bad = badArgs(args);
  if (bad) return { cleared: false, reason: bad };
  const toolArgs = (args ?? {}) as JsonObject;
  if (!announced) guards.emit('tool_call', { tool_id: toolId, tool_name: name, tool_args: toolArgs }, origin);
  if (!guards.intercepts('tool_call')) return { cleared: true, args: toolArgs };
  const asked: InterceptMap['tool_call'] = { tool_id: toolId, tool_name: name, tool_args: toolArgs, ...(origin !== undefined && { origin_extension: origin }) };
  return guards.intercept('tool_call', asked).then((verdict): ClearedCall =>
    verdict.blocked ? { cleared: false, reason: verdict.reason, by: verdict.by, args: verdict.payload.tool_args } : { cleared: true, args: verdict.payload.tool_args ?? {} });
}

/** A call a guard refused, as zot reports it: the decision, then the `tool_result` event that it was `blocked` (it never ran). */
export function reportBlocked(emit: Emit, toolId: string, name: string, args: JsonObject, reason: string, origin?: string): void {
  emit('permission_decision', { tool_id: toolId, tool_name: name, decision: 'denied', source: 'policy', stage: 'pre_execution', reason }, origin);
  emit('tool_result', toolResultEvent(toolId, name, args, { ...toolOutcome('not_run', null, reason), content: [{ type: 'text', text: reason }], ending: { status: 'blocked', executed: false } }), origin);
}

/**
 * The `tool_result` event of a call, whatever its ending, in both families'
 * fields (docs/ZOT.md 5): zot's `tool_args`, `status`, `executed` and bounded
 * `result`; terva's `text` (the same bounded content as text) and `is_error`.
 * The text of an ending without content is its message.
 */
export function toolResultEvent(toolId: string, name: string, args: unknown, o: ToolOutcome): EventMap['tool_result'] {
  const { status, executed } = toolEnding(o);
  const blocks: ContentBlock[] = o.content.length || !o.message ? o.content : [{ type: 'text', text: o.message }];
  const { content, truncated } = boundResult(blocks);
  const isError = o.outcome !== 'completed' || o.isError;
  return {
    tool_id: toolId, tool_name: name, ...argsField(args), status, executed,
    result: { content, is_error: isError, ...(truncated && { truncated: true }) },
    text: blocksText(content), ...(isError && { is_error: true }),
  };
}

/** `tool_args` when the arguments are an object, else zot's `tool_args_raw` with them as JSON. */
function argsField(args: unknown): { tool_args: JsonObject } | { tool_args_raw: string } {
  if (args === undefined || args === null) return { tool_args: {} };
  // Arguments refused for their depth go as text, cut where they nest too deep, never as the value itself.
  return typeof args === 'object' && !Array.isArray(args) && !deeperThan(args, MAX_VALUE_DEPTH) ? { tool_args: args as JsonObject } : { tool_args_raw: boundedStringify(args) };
}

export interface ToolCallOptions extends CallOptions {
  /** The agent's id for the call, as events name it. Default: a fresh one. */
  toolId?: string;
  /** The caller sent its `tool_call` event already (with the other calls of its step). */
  announced?: boolean;
  /**
   * A call canceled through `token` after it reached the extension waits
   * this long for a late answer, which the outcome then reports as `late` (the extension
   * finished anyway; its answer was dropped). Default 0: no wait.
   */
  lateWithinMs?: number;
  /** Where this call's panels are shown (an MCP client that answers through elicitation); default: the host's UI. */
  panelUi?: PanelUI;
  /** The extension whose `call_tool` made this call: its events and intercept say so (`origin_extension`). */
  origin?: string;
  /** zot's call chain this call continues (a `call_tool` from inside a tool), its own name last. */
  chain?: readonly string[];
}

export class AgentPath {
  /** The lifecycle's emit, for helpers that take one (reportBlocked). */
  private readonly emitEvent: Emit = (event, payload, origin) => this.lifecycle.emit(event, payload, origin);

  constructor(
    private readonly registry: Registry,
    private readonly lifecycle: Lifecycle,
    private readonly timing: Timing,
    private readonly interactive: () => boolean,
    /** A command's response that opens this panel was read (Panels.expect). */
    private readonly panelComing: (rt: ExtensionRuntime, panelId: string) => void,
  ) {}

  /**
   * Sends a call its guards cleared to the extension that holds the tool.
   * Never throws for the outcomes of a call; always resolves exactly once.
   */
  private callTool(name: string, args: JsonObject, opts?: ToolCallOptions): Promise<ToolOutcome> {
    const found = this.registry.tool(name);
    if (!found) return Promise.resolve(toolOutcome('not_run', null, `no running extension provides the tool "${name}"`));
    const { entry: tool, rt } = found;
    // terva's withdrawal: still registered, but neither listed nor callable until its extension shows it again.
    if (tool.withdrawn) return Promise.resolve(toolOutcome('not_run', rt.name, `extension "${rt.name}" has withdrawn the tool "${name}" for now`));
    const interactive = tool.interactive;
    const panelUi = opts?.panelUi;
    if (interactive && !(panelUi?.interactive ?? this.interactive())) {
      // As zot: refused inside the tool's wrapper, so it counts as run.
      return Promise.resolve({ ...toolOutcome('not_run', rt.name, 'interactive extension tools require an interactive host'), ending: { status: 'failed', executed: true } });
    }
    const token = opts?.token;
    const timeoutMs = opts?.timeoutMs ?? (interactive ? 0 : this.timing.toolTimeoutMs);
    // The panels it opens find it in the connection's table of requests (Panels.callFor).
    const call = rt.callTool(tool.name, args, { token, timeoutMs, interactive, panelUi, chain: opts?.chain });
    const lateMs = opts?.lateWithinMs ?? 0;
    if (lateMs <= 0 || !call.id) return call.result;
    // Only a call its caller canceled (Stop), not one ended by its panel's dismissal or a time-out.
    return call.result.then(async (o) => (o.outcome === 'canceled' && token?.isCancellationRequested && (await rt.lateReply(call.id, lateMs)) ? { ...o, late: true } : o));
  }

  /** Invokes a command and returns its response; the caller carries it out. */
  invokeCommand(name: string, args: string, opts: CallOptions = {}): Promise<CommandOutcome> {
    const found = this.registry.command(name);
    if (!found) return Promise.resolve({ outcome: 'not_run', extension: null, message: `no running extension provides the command "${name}"` });
    return found.rt.callCommand(found.entry.name, args.trim(), { token: opts.token, timeoutMs: opts.timeoutMs ?? this.timing.commandTimeoutMs, onPanel: (id) => this.panelComing(found.rt, id) });
  }

  /**
   * The `tool_call` event for a call the model asked for, as zot sends it:
   * with the model's own args, before any interceptor is asked. A call whose
   * arguments cannot be sent is not announced (false): runToolCall refuses it.
   */
  announceToolCall(toolId: string, name: string, args: unknown): boolean {
    if (badArgs(args)) return false;
    this.lifecycle.emit('tool_call', { tool_id: toolId, tool_name: name, tool_args: (args ?? {}) as JsonObject });
    return true;
  }

  /**
   * The one way to call a tool, whoever asks (the agent's turn, an MCP
   * client, the palette, the CLI, an extension's `call_tool`): the steps of
   * clearToolCall, then zot's `permission_decision`, the call with the args
   * the guards leave, and the `tool_result` event, which every ending gets
   * (a refused or blocked call too, as never run). Never throws for the
   * outcomes of a call; always resolves exactly once.
   */
  async runToolCall(name: string, args: unknown, opts: ToolCallOptions = {}): Promise<ToolOutcome> {
    // The agent's id for the call, as events name it; the wire id is the connection's own.
    const toolId = opts.toolId ?? `call-${nextId()}`;
    const origin = opts.origin;
    const clearing = clearToolCall(this, toolId, name, args, opts.announced, origin);
    const cleared = clearing instanceof Promise ? await clearing : clearing;
    if (!cleared.cleared) {
      const owner = this.registry.tool(name)?.rt.name ?? null;
      if (cleared.by === undefined) {
        const refused = toolOutcome('not_run', owner, cleared.reason);
        this.lifecycle.emit('tool_result', toolResultEvent(toolId, name, args, refused), origin);
        return refused;
      }
      reportBlocked(this.emitEvent, toolId, name, cleared.args ?? (args as JsonObject) ?? {}, cleared.reason, origin);
      return { ...toolOutcome('not_run', owner, `blocked by extension "${cleared.by}": ${cleared.reason}`), content: [{ type: 'text', text: cleared.reason }], ending: { status: 'blocked', executed: false } };
    }
    // As zot's headless modes: a call its guards let through is approved by policy of the mode; an unknown tool gets no decision.
    if (this.registry.tool(name)) this.decided(toolId, name, 'approved', 'yolo', undefined, origin);
    const outcome = await this.callTool(name, cleared.args, opts);
    // Built only when someone listens: most calls have no subscriber. The sequence counts it either way.
    if (this.lifecycle.heard('tool_result')) this.lifecycle.emit('tool_result', toolResultEvent(toolId, name, cleared.args, outcome), origin);
    else this.lifecycle.skip();
    return outcome;
  }

  /**
   * A call the host runs outside any extension (terva's `host_tool_call` of
   * the editor's tools), through the same guards: the `tool_call` event and
   * intercepts with the caller as its origin, and on a block zot's report;
   * what runs is what the guards leave, and `ended` sends its `tool_result`.
   */
  async guardHostCall(name: string, args: JsonObject, origin: string): Promise<GuardedHostCall> {
    const toolId = `host-call-${nextId()}`;
    const clearing = clearToolCall(this, toolId, name, args, false, origin);
    const cleared = clearing instanceof Promise ? await clearing : clearing;
    if (!cleared.cleared) {
      if (cleared.by !== undefined) reportBlocked(this.emitEvent, toolId, name, cleared.args ?? args, cleared.reason, origin);
      else this.lifecycle.emit('tool_result', toolResultEvent(toolId, name, args, toolOutcome('not_run', null, cleared.reason)), origin);
      return { run: false, reason: cleared.by === undefined ? cleared.reason : `blocked by extension "${cleared.by}": ${cleared.reason}` };
    }
    return {
      run: true,
      args: cleared.args,
      ended: (isError, content) => this.lifecycle.emit('tool_result', toolResultEvent(toolId, name, cleared.args, { outcome: 'completed', extension: origin, isError, content: [...content], message: '' }), origin),
    };
  }

  /** zot's `permission_decision` for a call (docs/ZOT.md 3.4): it reports, it grants nothing. */
  decided(toolId: string, name: string, decision: PermissionDecision, source: PermissionSource, reason?: string, origin?: string): void {
    if (!this.lifecycle.heard('permission_decision')) return this.lifecycle.skip();
    this.lifecycle.emit('permission_decision', { tool_id: toolId, tool_name: name, decision, source, stage: 'pre_execution', ...(reason !== undefined && { reason }) }, origin);
  }

  /** Whether a running extension offers a tool of that name. */
  knows(name: string): boolean {
    return this.registry.tool(name) !== undefined;
  }

  /** Whether intercept() would ask anyone: a connected extension that intercepts `event`. */
  intercepts(event: InterceptableEvent): boolean {
    for (const rt of this.registry.all) if (asks(rt, event)) return true;
    return false;
  }

  /** Fire-and-forget: queued to every subscriber, never awaited. */
  emit<K extends EventName>(event: K, payload: EventMap[K], origin?: string): void {
    this.lifecycle.emit(event, payload, origin);
  }

  /**
   * Asks every subscriber of an interceptable event, one after another in load
   * order. The first block wins; `modified_args` and `replace_text` chain.
   * A subscriber that does not answer in time counts as allow.
   */
  async intercept<K extends InterceptableEvent>(event: K, payload: InterceptMap[K]): Promise<InterceptResult<K>> {
    let current: InterceptMap[K] = payload;
    const heard: Heard[] = [];
    for (const rt of this.registry.all) {
      if (!asks(rt, event)) continue;
      const ending = await rt.intercept(event, current, this.timing.interceptTimeoutMs);
      heard.push({ by: rt.name, ending });
      const answer = ending.kind === 'answered' ? ending.answer : undefined;
      if (!answer) continue;
      if (event === 'before_agent_start') {
        current = startPrompt(rt, answer, current as InterceptMap['before_agent_start']) as InterceptMap[K];
        continue;
      }
      if (answer.block) return { blocked: true, reason: answer.reason || `blocked by ${rt.name}`, by: rt.name, payload: current, heard };
      if (answer.modified_args !== undefined) {
        const m = answer.modified_args;
        if (event === 'tool_call' && typeof m === 'object' && m !== null && !Array.isArray(m)) current = { ...current, tool_args: m };
        else rt.addProblem(`ignored modified_args in its ${event} intercept answer: it must be an object${event === 'tool_call' ? '' : ', on a tool_call'}`);
      }
      // As zot: an empty replace_text is no replacement. terva rewrites the user's prompt the same way.
      if (answer.replace_text && (event === 'assistant_message' || event === 'user_message')) current = { ...current, text: answer.replace_text };
    }
    return { blocked: false, payload: current, heard };
  }
}

/** The largest `system_prompt` a before_agent_start answer may give, JSON-encoded (zot: 1 MiB). */
const MAX_SYSTEM_PROMPT_BYTES = 1024 * 1024;

/**
 * One before_agent_start answer applied as zot applies it (docs/ZOT.md 3.6):
 * its `system_prompt` replaces the whole prompt (`""` removes it, absent
 * keeps it); it never blocks. What cannot be used keeps the prompt and says
 * why among the extension's problems.
 */
function startPrompt(rt: ExtensionRuntime, answer: { block?: boolean; system_prompt?: unknown }, current: InterceptMap['before_agent_start']): InterceptMap['before_agent_start'] {
  const keep = (why: string): InterceptMap['before_agent_start'] => {
    rt.addProblem(`before_agent_start: ${why}; keeping current system prompt`);
    return current;
  };
  const p = answer.system_prompt;
  if (p === undefined) return answer.block ? keep('extension returned a blocking response; startup hooks cannot block') : current;
  if (typeof p !== 'string') return keep('system_prompt must be a string');
  if (Buffer.byteLength(JSON.stringify(p)) > MAX_SYSTEM_PROMPT_BYTES) return keep('system_prompt exceeds 1 MiB encoded limit');
  return { ...current, system_prompt: p };
}

/** Whether intercept() asks this extension about `event`: it subscribed to intercept it and is connected. */
function asks(rt: ExtensionRuntime, event: InterceptableEvent): boolean {
  return rt.intercepts.has(event) && isServing(rt.status);
}

/** Why arguments cannot be sent, or undefined when they can. */
function badArgs(args: unknown): string | undefined {
  // Missing (or null) arguments are sent as {}, as zot does.
  if (args === undefined || args === null) return undefined;
  if (typeof args !== 'object' || Array.isArray(args)) {
    return `the arguments must be a JSON object, not ${Array.isArray(args) ? 'an array' : `a ${typeof args}`}; the call was not sent`;
  }
  return deeperThan(args, MAX_VALUE_DEPTH) ? `the arguments are nested deeper than ${MAX_VALUE_DEPTH} levels; the call was not sent` : undefined;
}
