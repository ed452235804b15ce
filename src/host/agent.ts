/**
 * The agent's path into extensions: tool calls and commands routed to the
 * extension that holds the name, lifecycle events to their subscribers, and
 * intercepts asked in load order.
 */
import { deeperThan, MAX_VALUE_DEPTH, type EventPayload, type InterceptableEvent, type JsonObject } from '../protocol/index.js';
import { nextId } from './connection/ids.js';
import { blocksText } from './content.js';
import type { ExtensionRuntime } from './extension/runtime.js';
import type { PanelUI } from './port.js';
import type { CallOptions, Timing } from './options.js';
import { toolOutcome, type CommandOutcome, type ToolOutcome } from './outcomes.js';
import type { Registry } from './registry.js';

export type InterceptResult =
  | { blocked: false; payload: EventPayload }
  | { blocked: true; reason: string; by: string };

/** What a tool call's guards are asked through: zot's events and intercepts. */
export interface Guards {
  emit(event: string, payload?: EventPayload): void;
  /** Whether any connected extension intercepts `event`: whether intercept() would ask anyone. */
  intercepts(event: InterceptableEvent): boolean;
  intercept(event: InterceptableEvent, payload: EventPayload): Promise<InterceptResult>;
}

/** What is left of a tool call after its checks and its guards: the args to send, or why nothing is sent (`by`: the guard that blocked it). */
export type ClearedCall =
  | { cleared: true; args: JsonObject }
  | { cleared: false; reason: string; by?: string };

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
export function clearToolCall(guards: Guards, toolId: string, name: string, args: unknown, announced = false): ClearedCall | Promise<ClearedCall> {
  const bad = badArgs(args);
  if (bad) return { cleared: false, reason: bad };
  const payload = { tool_id: toolId, tool_name: name, tool_args: (args ?? {}) as JsonObject };
  if (!announced) guards.emit('tool_call', payload);
  if (!guards.intercepts('tool_call')) return { cleared: true, args: payload.tool_args };
  return guards.intercept('tool_call', payload).then((verdict): ClearedCall =>
    verdict.blocked ? { cleared: false, reason: verdict.reason, by: verdict.by } : { cleared: true, args: verdict.payload.tool_args ?? {} });
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
}

export class AgentPath {
  constructor(
    private readonly registry: Registry,
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
      return Promise.resolve(toolOutcome('not_run', rt.name, 'interactive extension tools require an interactive host'));
    }
    const token = opts?.token;
    const timeoutMs = opts?.timeoutMs ?? (interactive ? 0 : this.timing.toolTimeoutMs);
    // The panels it opens find it in the connection's table of requests (Panels.callFor).
    const call = rt.callTool(tool.name, args, { token, timeoutMs, interactive, panelUi });
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
    this.emit('tool_call', { tool_id: toolId, tool_name: name, tool_args: (args ?? {}) as JsonObject });
    return true;
  }

  /**
   * The one way to call a tool, whoever asks (the agent's turn, an MCP
   * client, the palette, the CLI): the steps of clearToolCall, then the call
   * with the args the guards leave, then terva's `tool_result` event. A call
   * refused for its arguments sent nothing; a blocked call has had its event.
   * Never throws for the outcomes of a call; always resolves exactly once.
   */
  async runToolCall(name: string, args: unknown, opts: ToolCallOptions = {}): Promise<ToolOutcome> {
    // The agent's id for the call, as events name it; the wire id is the connection's own.
    const toolId = opts.toolId ?? `call-${nextId()}`;
    const clearing = clearToolCall(this, toolId, name, args, opts.announced);
    const cleared = clearing instanceof Promise ? await clearing : clearing;
    if (!cleared.cleared) {
      const owner = this.registry.tool(name)?.rt.name ?? null;
      if (cleared.by === undefined) return toolOutcome('not_run', owner, cleared.reason);
      return { ...toolOutcome('not_run', owner, `blocked by extension "${cleared.by}": ${cleared.reason}`), content: [{ type: 'text', text: cleared.reason }] };
    }
    const outcome = await this.callTool(name, cleared.args, opts);
    // terva's tool_result event, after each call the agent made (docs/TERVA.md 18): the result's text and whether it failed.
    // Its text is joined only when someone listens: most calls have no subscriber.
    if (this.heard('tool_result')) {
      const text = outcome.content.length ? blocksText(outcome.content) : outcome.message;
      this.emit('tool_result', { tool_id: toolId, tool_name: name, text, ...((outcome.outcome !== 'completed' || outcome.isError) && { is_error: true }) });
    }
    return outcome;
  }

  /** Whether intercept() would ask anyone: a connected extension that intercepts `event`. */
  intercepts(event: InterceptableEvent): boolean {
    for (const rt of this.registry.all) if (asks(rt, event)) return true;
    return false;
  }

  /** Whether any extension subscribes to `event`. */
  private heard(event: string): boolean {
    for (const rt of this.registry.all) if (rt.events.has(event)) return true;
    return false;
  }

  /** Fire-and-forget: queued to every subscriber, never awaited. */
  emit(event: string, payload: EventPayload = {}): void {
    for (const rt of this.registry.all) {
      if (rt.events.has(event)) rt.send({ ...payload, type: 'event', event });
    }
  }

  /**
   * Asks every subscriber of an interceptable event, one after another in load
   * order. The first block wins; `modified_args` and `replace_text` chain.
   * A subscriber that does not answer in time counts as allow.
   */
  async intercept(event: InterceptableEvent, payload: EventPayload): Promise<InterceptResult> {
    let current = payload;
    for (const rt of this.registry.all) {
      if (!asks(rt, event)) continue;
      const answer = await rt.intercept(event, current, this.timing.interceptTimeoutMs);
      if (!answer) continue;
      if (answer.block) return { blocked: true, reason: answer.reason || `blocked by ${rt.name}`, by: rt.name };
      if (answer.modified_args !== undefined) {
        const m = answer.modified_args;
        if (event === 'tool_call' && typeof m === 'object' && m !== null && !Array.isArray(m)) current = { ...current, tool_args: m };
        else rt.addProblem(`ignored modified_args in its ${event} intercept answer: it must be an object${event === 'tool_call' ? '' : ', on a tool_call'}`);
      }
      // As zot: an empty replace_text is no replacement. terva rewrites the user's prompt the same way.
      if (answer.replace_text && (event === 'assistant_message' || event === 'user_message')) current = { ...current, text: answer.replace_text };
    }
    return { blocked: false, payload: current };
  }
}

/** Whether intercept() asks this extension about `event`: it subscribed to intercept it and is connected. */
function asks(rt: ExtensionRuntime, event: InterceptableEvent): boolean {
  return rt.intercepts.has(event) && rt.connected;
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
