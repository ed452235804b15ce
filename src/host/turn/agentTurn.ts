/**
 * One agent turn, as zot's agent loop runs it (internal/core/agent.go), over
 * a small model port: every front end that drives a model (@zot in VS Code,
 * agent hooks, a CLI) gets the same order of events and intercepts, the same
 * checks of the model's tool calls, the same Stop and the same truth about a
 * call that was running when the user stopped.
 *
 * The order, per request: terva's `user_message` intercept, zot's
 * `user_prompt_submit` and terva's `user_message` events, zot's
 * `before_agent_start` intercept where the front end owns a system prompt
 * and asks for it (never a refusal: its answer replaces the prompt); then per model
 * step `turn_start` (event, then intercept), the model's reply, its text
 * through the `assistant_message` intercept and event (or an
 * `assistant_message` event without text for a reply of tool calls only),
 * a `tool_call` event for every call of the step with the model's own args,
 * `turn_end` with zot's stop name, and then the calls, each through the
 * `tool_call` intercepts, each followed by `permission_decision` and the
 * `tool_result` event in both families' fields. A Stop
 * while the model streams ends the step with `turn_end` `aborted`; a Stop
 * while tools run sends nothing more. terva's `run_end` closes every request
 * that got past its intercepts, whatever ended it.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { EventMap, EventName, InterceptableEvent, InterceptMap, JsonObject } from '../../protocol/index.js';
import type { InterceptResult, ToolCallOptions } from '../agent/agentPath.js';
import type { ToolOutcome } from '../results/outcomes.js';

/** A call the model asked for, by zot's tool name. */
export interface ModelCall {
  /** The model's id for the call (events name it `tool_id`). */
  id: string;
  name: string;
  /** The arguments as the model sent them; checked before the call runs. */
  input: unknown;
}

export interface ModelStep {
  text: string;
  calls: ModelCall[];
}

/**
 * What the turn needs of a model. The port keeps the conversation; the
 * turn tells it what the model said and what the calls returned.
 */
export interface ModelPort {
  /**
   * The user's prompt as the `user_message` interceptors left it, before the
   * first step: the model receives this text. A port without it put the
   * prompt in itself (a rewrite then does not reach the model).
   */
  prompt?(text: string): void;
  /** The system prompt as the `before_agent_start` interceptors left it (asked only with TurnOptions.startup). */
  system?(text: string): void;
  /**
   * zot's `tool_prompt`: the call the turn made before the model's first
   * step and how it ended, to be recorded after the prompt as the
   * assistant's call and its result.
   */
  prelude?(ended: EndedCall): void;
  /**
   * One model step over the conversation so far. Resolves with the whole
   * reply, or, once `token` is cancelled, with what had arrived; rejects
   * when the model fails (the error's message is shown and sent in
   * `turn_end`).
   */
  step(token: CancellationToken): Promise<ModelStep>;
  /** The model's reply, as it said it (not as an interceptor showed it), joins the conversation. */
  replied(step: ModelStep): void;
  /** The step's calls ended: their results join the conversation, in the order of the calls. */
  results(ended: readonly EndedCall[]): void;
}

/** How one call of the model's ended. */
export interface EndedCall {
  call: ModelCall;
  outcome: ToolOutcome;
  /** The user's Stop ended it (or it never started because of it). */
  byStop: boolean;
  /** It never started: the user stopped the turn during an earlier call of the same step. */
  neverStarted?: true;
}

/** What the front end shows; every method is optional. */
export interface TurnView {
  /** The prompt's interceptors let it through: the steps begin. */
  started?(): void;
  /** The prompt (`user_message`) or `turn_start` was blocked by an interceptor. */
  blocked?(what: 'prompt' | 'turn', by: string, reason: string): void;
  /** Assistant text as the interceptors left it. */
  text?(shown: string): void;
  /** An interceptor hid the assistant's text. */
  hidden?(by: string, reason: string): void;
  /** A reply cut short by Stop that held no tool call: its text stays in the conversation's record. */
  cutShort?(text: string): void;
  /** The model's step (after its text was shown): the calls it asked for, about to run. */
  stepReplied?(step: ModelStep): void;
  callStarting?(call: ModelCall): void;
  callEnded?(ended: EndedCall): void;
  modelFailed?(message: string): void;
}

export type TurnStop = 'end_turn' | 'blocked' | 'error' | 'canceled' | 'max_steps';

export interface TurnResult {
  stop: TurnStop;
  steps: number;
  /** Stop arrived while a tool call ran (its ending was reported to the view). */
  stoppedInCall: boolean;
}

/** The host's agent path, as the turn uses it. */
export interface TurnHost {
  emit<K extends Exclude<EventName, 'session_start' | 'session_end'>>(event: K, payload: EventMap[K]): void;
  intercept<K extends InterceptableEvent>(event: K, payload: InterceptMap[K]): Promise<InterceptResult<K>>;
  announceToolCall(toolId: string, name: string, args: unknown): boolean;
  runToolCall(name: string, args: unknown, opts?: ToolCallOptions): Promise<ToolOutcome>;
}

export interface TurnOptions {
  prompt: string;
  maxSteps: number;
  token: CancellationToken;
  /** How long after Stop a canceled call's extension may still answer, to tell "it stopped" from "it finished anyway". */
  lateWithinMs: number;
  /** What a model failure says, for the view and `turn_end`. Default: its message. */
  describeError?(err: unknown): string;
  /** Images attached to the prompt (zot's `image_count`). */
  imageCount?: number;
  /**
   * zot's `before_agent_start`, asked before the first step with the system
   * prompt the front end owns, when it asks for it (once per session, after
   * a model change or a reload); the chained answer goes to `port.system`.
   */
  startup?: Omit<InterceptMap['before_agent_start'], 'agent_run_id'>;
  /** zot's `tool_prompt`: this tool runs through the door after the prompt is accepted and before the first step. */
  prelude?: { tool: string; args: JsonObject };
}

let runs = 0;

/** zot's stop names in `turn_end`. */
type StepStop = 'tool_use' | 'end' | 'error' | 'aborted';

export async function runAgentTurn(host: TurnHost, port: ModelPort, view: TurnView, opts: TurnOptions): Promise<TurnResult> {
  // terva: the user's prompt may be dropped or rewritten before anything else sees it.
  const asked = await host.intercept('user_message', { text: opts.prompt });
  if (asked.blocked) {
    view.blocked?.('prompt', asked.by, asked.reason);
    return { stop: 'blocked', steps: 0, stoppedInCall: false };
  }
  const prompt = asked.payload.text ?? opts.prompt;
  host.emit('user_prompt_submit', { ...(prompt && { text: prompt }), ...(opts.imageCount && { image_count: opts.imageCount }) });
  host.emit('user_message', { text: prompt });
  if (opts.startup) {
    // zot: never a refusal; each extension gets the previous one's prompt, the last one's is used.
    const before = await host.intercept('before_agent_start', { ...opts.startup, agent_run_id: `run-${++runs}` });
    port.system?.(before.payload.system_prompt);
  }
  port.prompt?.(prompt);
  view.started?.();
  if (opts.prelude) {
    // As zot: the call goes the normal way (events, guards), the pair is recorded, and a Stop ends the request before the model.
    const call: ModelCall = { id: `prelude-${++runs}`, name: opts.prelude.tool, input: opts.prelude.args };
    view.callStarting?.(call);
    const outcome = await host.runToolCall(call.name, call.input, { token: opts.token, toolId: call.id, lateWithinMs: opts.lateWithinMs });
    const ended: EndedCall = { call, outcome, byStop: opts.token.isCancellationRequested };
    view.callEnded?.(ended);
    port.prelude?.(ended);
    if (ended.byStop) {
      host.emit('run_end', { error: 'canceled by the user' });
      return { stop: 'canceled', steps: 0, stoppedInCall: true };
    }
  }
  const done = await runSteps(host, port, view, opts);
  // terva: once per prompt, after every step, with the error that ended it.
  host.emit('run_end', done.stop === 'error' && done.error !== undefined ? { error: done.error } : done.stop === 'canceled' ? { error: 'canceled by the user' } : {});
  return { stop: done.stop, steps: done.steps, stoppedInCall: done.stoppedInCall };
}

async function runSteps(host: TurnHost, port: ModelPort, view: TurnView, opts: TurnOptions): Promise<TurnResult & { error?: string }> {
  const { token } = opts;
  let steps = 0;
  let error: string | undefined;
  const stepEnd = (stop: StepStop, why?: string): void => {
    if (stop === 'error') error = why;
    host.emit('turn_end', why === undefined ? { stop } : { stop, error: why });
  };
  const result = (stop: TurnStop, stoppedInCall = false): TurnResult & { error?: string } => ({ stop, steps, stoppedInCall, ...(error !== undefined && { error }) });

  while (steps < opts.maxSteps) {
    if (token.isCancellationRequested) return result('canceled');
    steps++;
    // As zot: the event goes out before the step's interceptors are asked.
    host.emit('turn_start', { step: steps });
    const turn = await host.intercept('turn_start', { step: steps });
    if (turn.blocked) {
      view.blocked?.('turn', turn.by, turn.reason);
      stepEnd('error', turn.reason);
      return result('blocked');
    }

    let step: ModelStep;
    try {
      step = await port.step(token);
    } catch (err) {
      if (token.isCancellationRequested) step = { text: '', calls: [] };
      else {
        const message = opts.describeError ? opts.describeError(err) : (err as Error)?.message ?? String(err);
        view.modelFailed?.(message);
        stepEnd('error', message);
        return result('error');
      }
    }
    if (token.isCancellationRequested) {
      // As zot: a reply cut short keeps its text, and is dropped whole if it held tool calls.
      if (step.text && step.calls.length === 0) view.cutShort?.(step.text);
      stepEnd('aborted', 'context canceled');
      return result('canceled');
    }

    if (step.text) await showText(host, view, step.text);
    // As zot: a message of tool calls only is an assistant_message without text.
    else if (step.calls.length) host.emit('assistant_message', {});
    // The model's own words stay in the conversation, whatever an interceptor showed instead.
    port.replied(step);
    view.stepReplied?.(step);
    // As zot: every call of the step is announced with the model's args, then the step ends, then the calls run.
    // One whose args cannot be sent is not announced; its call is refused before anything goes out.
    for (const call of step.calls) host.announceToolCall(call.id, call.name, call.input);
    stepEnd(step.calls.length ? 'tool_use' : 'end');
    if (step.calls.length === 0) return result('end_turn');

    const ended: EndedCall[] = [];
    for (const [i, call] of step.calls.entries()) {
      view.callStarting?.(call);
      const outcome = await host.runToolCall(call.name, call.input, { token, toolId: call.id, announced: true, lateWithinMs: opts.lateWithinMs });
      const byStop = token.isCancellationRequested;
      const done: EndedCall = { call, outcome, byStop };
      ended.push(done);
      view.callEnded?.(done);
      if (byStop) {
        // Every call the model asked for gets an ending, or the next turn's conversation would be malformed.
        for (const rest of step.calls.slice(i + 1)) {
          const never: EndedCall = { call: rest, outcome: NEVER_STARTED_OUTCOME, byStop: true, neverStarted: true };
          ended.push(never);
          view.callEnded?.(never);
        }
        port.results(ended);
        return result('canceled', true);
      }
    }
    port.results(ended);
  }
  return result('max_steps');
}

/** The outcome of a call the user's Stop kept from starting. */
export const NEVER_STARTED_OUTCOME: ToolOutcome = { outcome: 'not_run', extension: null, isError: true, content: [], message: 'the user pressed Stop before this call started' };

/** Shows one assistant message after the assistant_message interceptors had their say. */
async function showText(host: TurnHost, view: TurnView, text: string): Promise<void> {
  const verdict = await host.intercept('assistant_message', { text });
  if (verdict.blocked) return view.hidden?.(verdict.by, verdict.reason);
  const shown = verdict.payload.text ?? text;
  view.text?.(shown);
  host.emit('assistant_message', { text: shown });
}
