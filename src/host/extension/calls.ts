/**
 * The three kinds of request the host sends an extension, as specs for the
 * connection's request table: what each ending of a tool call, a command
 * and an intercept means for its caller.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { EventInterceptFromHost, EventInterceptResponseFromExt, FrameFromHost, InterceptableEvent, InterceptMap, JsonObject } from '../../protocol/index.js';
import type { InFlight, ReplyFrame, RequestSpec, RequestTable, StopReason } from '../connection/requests.js';
import { replaceUndecodable, undecodableImages } from '../results/content.js';
import { formatMs, stoppedMessage, type CommandOutcome, type ToolOutcome, type UnfinishedOutcome } from '../results/outcomes.js';
import type { PanelUI } from '../port.js';

/** What a tool call is made with beyond its name and arguments. */
export interface ToolCallOpts {
  token?: CancellationToken | undefined;
  timeoutMs: number;
  /** The tool is interactive: a panel the extension opens without naming a call binds to the newest such call. */
  interactive: boolean;
  /** Where the call's panels are shown, when not the host's UI. */
  panelUi?: PanelUI | undefined;
  /** zot's call chain: the tool names from the model's call down to this one (docs/ZOT.md 2.2). Default: this tool alone. */
  chain?: readonly string[] | undefined;
}

/**
 * A tool call's spec: one object per call, its endings methods (a closure
 * each would cost more than a small call). It also says, for as long as the
 * call is in flight, what the panels it opens need to know of it.
 */
export class ToolCallSpec implements RequestSpec<ToolOutcome> {
  readonly cancelFrame: ((id: string) => FrameFromHost) | undefined;
  readonly token: CancellationToken | undefined;
  readonly timeoutMs: number;
  readonly interactive: boolean;
  readonly panelUi: PanelUI | undefined;
  private readonly givenChain: readonly string[] | undefined;

  constructor(
    private readonly ext: string,
    private readonly name: string,
    private readonly args: JsonObject,
    opts: ToolCallOpts,
    private readonly supportsCancel: boolean,
  ) {
    this.token = opts.token;
    this.timeoutMs = opts.timeoutMs;
    this.interactive = opts.interactive;
    this.panelUi = opts.panelUi;
    this.givenChain = opts.chain;
    this.cancelFrame = supportsCancel ? toolCancelFrame : undefined;
  }

  /** The tool names from the model's call down to this one: what a `call_tool` made while it runs is checked against. */
  get chain(): readonly string[] {
    return this.givenChain ?? [this.name];
  }

  frame(id: string): FrameFromHost {
    return { type: 'tool_call', id, name: this.name, args: this.args };
  }

  reply(frame: ReplyFrame): ToolOutcome {
    const ext = this.ext;
    if (frame.type === 'tool_result') {
      const content = frame.content ?? [];
      // As zot reads them: an undecodable image makes the whole result an error.
      const undecodable = undecodableImages(content);
      if (undecodable) return { outcome: 'completed', extension: ext, isError: true, content: replaceUndecodable(content, ext, this.name), message: `the extension returned ${undecodable === 1 ? 'an image' : `${undecodable} images`} that could not be decoded` };
      const done: ToolOutcome = { outcome: 'completed', extension: ext, isError: frame.is_error === true, content, message: '' };
      if (frame.structured_content !== undefined) done.structured = frame.structured_content;
      if (frame.activate_tools?.length) done.activate = frame.activate_tools;
      return done;
    }
    if (frame.type === 'error') return { outcome: 'completed', extension: ext, isError: true, content: [{ type: 'text', text: frame.message || 'the extension reported an error' }], message: 'the extension answered with an error frame' };
    return this.malformed(`answered with "${frame.type}"`);
  }

  malformed(problem: string): ToolOutcome {
    return { outcome: 'completed', extension: this.ext, isError: true, content: [{ type: 'text', text: `malformed tool_result: ${problem}` }], message: `the extension sent a malformed tool_result: ${problem}` };
  }

  notRun(message: string): ToolOutcome {
    // Never sent: taken back on a cancel, or on a deadline that passed while it waited to be written.
    return { ...this.unfinished('not_run', message), ending: { status: this.token?.isCancellationRequested ? 'cancelled' : 'timed_out', executed: false } };
  }

  stopped(why: StopReason): ToolOutcome {
    return this.unfinished(why === 'timed_out' ? 'timed_out' : this.supportsCancel ? 'canceled' : 'abandoned', stoppedMessage(why, this.supportsCancel, this.timeoutMs));
  }

  closed(reason: string): ToolOutcome {
    return this.unfinished('disconnected', `extension "${this.ext}" ${reason} while the call was pending`);
  }

  private unfinished(outcome: UnfinishedOutcome['outcome'], message: string): UnfinishedOutcome {
    return { outcome, extension: this.ext, isError: true, content: [], message };
  }
}

const toolCancelFrame = (id: string): FrameFromHost => ({ type: 'tool_cancel', id });

/** A tool call in flight. */
export type ToolCall = InFlight<ToolOutcome> & { readonly spec: ToolCallSpec };

/** The request as a tool call, when it is one. */
export function asToolCall(r: InFlight<unknown> | undefined): ToolCall | undefined {
  return r?.spec instanceof ToolCallSpec ? (r as ToolCall) : undefined;
}

/** The tool calls in flight in a connection's request table, oldest first. */
export function* toolCallsIn(table: RequestTable): IterableIterator<ToolCall> {
  for (const r of table.inFlight()) {
    const c = asToolCall(r);
    if (c) yield c;
  }
}

export function commandSpec(ext: string, name: string, args: string, opts: { token?: CancellationToken | undefined; timeoutMs: number; onPanel?: ((panelId: string) => void) | undefined }): RequestSpec<CommandOutcome> {
  const answered = (id: string, error: string): CommandOutcome => ({ outcome: 'completed', extension: ext, response: { type: 'command_response', id, action: 'noop', error }, message: '' });
  let wireId = '';
  return {
    frame: (id) => {
      wireId = id;
      return { type: 'command_invoked', id, name, args };
    },
    token: opts.token,
    timeoutMs: opts.timeoutMs,
    reply: (frame) => {
      if (frame.type === 'command_response') {
        // Told as the response is read, before the frames after it: they may be for that panel.
        if (frame.action === 'open_panel' && frame.open_panel) opts.onPanel?.(frame.open_panel.id);
        return { outcome: 'completed', extension: ext, response: frame, message: '' };
      }
      if (frame.type === 'error') return answered(wireId, frame.message || 'the extension reported an error');
      return answered(wireId, `malformed command_response: answered with "${frame.type}"`);
    },
    malformed: (problem) => answered(wireId, `malformed command_response: ${problem}`),
    notRun: (message) => ({ outcome: 'not_run', extension: ext, message }),
    // Commands have no cancel frame: the extension cannot be told.
    stopped: (why) => why === 'timed_out'
      ? { outcome: 'timed_out', extension: ext, message: `timed out after ${formatMs(opts.timeoutMs)}; the command may still finish in the extension` }
      : { outcome: 'abandoned', extension: ext, message: 'canceled; commands cannot be cancelled in the extension, so it may still act' },
    closed: (reason) => ({ outcome: 'disconnected', extension: ext, message: `extension "${ext}" ${reason} while the command was pending` }),
  };
}

/**
 * How one guard's intercept ended, as data (the hook verb and fail-closed
 * read it): answered (with no answer for an `error` frame, which allows),
 * or allowed for want of an answer, with what was wrong in words.
 */
export type GuardEnding =
  | { kind: 'answered'; answer?: EventInterceptResponseFromExt }
  | { kind: 'timed_out' | 'malformed' | 'not_sent' | 'gone'; said: string };

/** An intercept resolves with the extension's answer, or how it ended without one (allow); what went wrong is also its problem. */
export function interceptSpec<K extends InterceptableEvent>(event: K, payload: InterceptMap[K], timeoutMs: number, problem: (message: string) => void): RequestSpec<GuardEnding> {
  const without = (kind: 'timed_out' | 'malformed' | 'not_sent', said: string): GuardEnding => {
    problem(kind === 'malformed' ? `malformed answer to the ${event} intercept (treated as allow): ${said.slice(`malformed answer to the ${event} intercept: `.length)}` : `${said}; treated as allow`);
    return { kind, said };
  };
  const malformed = (what: string): GuardEnding => without('malformed', `malformed answer to the ${event} intercept: ${what}`);
  return {
    frame: (id) => ({ type: 'event_intercept', id, event, ...payload }) as EventInterceptFromHost,
    timeoutMs,
    reply: (frame) => {
      if (frame.type === 'event_intercept_response') return { kind: 'answered', answer: frame };
      return frame.type === 'error' ? { kind: 'answered' } : malformed(`answered with "${frame.type}"`);
    },
    malformed,
    notRun: (message) => without('not_sent', `the ${event} intercept ${message}`),
    stopped: () => without('timed_out', `did not answer the ${event} intercept within ${formatMs(timeoutMs)}`),
    closed: () => ({ kind: 'gone', said: `went away while asked the ${event} intercept` }),
  };
}
