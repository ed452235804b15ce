/**
 * The three kinds of request the host sends an extension, as specs for the
 * connection's request table: what each ending of a tool call, a command
 * and an intercept means for its caller.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { EventInterceptResponseFromExt, EventPayload, FrameFromHost, JsonObject } from '../../protocol/index.js';
import type { InFlight, ReplyFrame, RequestSpec, RequestTable, StopReason } from '../connection/requests.js';
import { replaceUndecodable, undecodableImages } from '../content.js';
import { formatMs, stoppedMessage, type CommandOutcome, type ToolOutcome } from '../outcomes.js';
import type { PanelUI } from '../port.js';

/** What a tool call is made with beyond its name and arguments. */
export interface ToolCallOpts {
  token?: CancellationToken | undefined;
  timeoutMs: number;
  /** The tool is interactive: a panel the extension opens without naming a call binds to the newest such call. */
  interactive: boolean;
  /** Where the call's panels are shown, when not the host's UI. */
  panelUi?: PanelUI | undefined;
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
    this.cancelFrame = supportsCancel ? toolCancelFrame : undefined;
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
      return { outcome: 'completed', extension: ext, isError: frame.is_error === true, content, message: '' };
    }
    if (frame.type === 'error') return { outcome: 'completed', extension: ext, isError: true, content: [{ type: 'text', text: frame.message || 'the extension reported an error' }], message: 'the extension answered with an error frame' };
    return this.malformed(`answered with "${frame.type}"`);
  }

  malformed(problem: string): ToolOutcome {
    return { outcome: 'completed', extension: this.ext, isError: true, content: [{ type: 'text', text: `malformed tool_result: ${problem}` }], message: `the extension sent a malformed tool_result: ${problem}` };
  }

  notRun(message: string): ToolOutcome {
    return this.unfinished('not_run', message);
  }

  stopped(why: StopReason): ToolOutcome {
    return this.unfinished(why === 'timed_out' ? 'timed_out' : this.supportsCancel ? 'canceled' : 'abandoned', stoppedMessage(why, this.supportsCancel, this.timeoutMs));
  }

  closed(reason: string): ToolOutcome {
    return this.unfinished('disconnected', `extension "${this.ext}" ${reason} while the call was pending`);
  }

  private unfinished(outcome: Exclude<ToolOutcome['outcome'], 'completed'>, message: string): ToolOutcome {
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

/** An intercept resolves with the extension's answer, or undefined (allow) when there is none in time. */
export function interceptSpec(event: string, payload: EventPayload, timeoutMs: number, problem: (message: string) => void): RequestSpec<EventInterceptResponseFromExt | undefined> {
  return {
    frame: (id) => ({ ...payload, type: 'event_intercept', id, event }),
    timeoutMs,
    reply: (frame) => {
      if (frame.type === 'event_intercept_response') return frame;
      if (frame.type !== 'error') problem(`malformed answer to the ${event} intercept (treated as allow): answered with "${frame.type}"`);
      return undefined;
    },
    malformed: (message) => {
      problem(`malformed answer to the ${event} intercept (treated as allow): ${message}`);
      return undefined;
    },
    notRun: (message) => {
      problem(`the ${event} intercept ${message}; treated as allow`);
      return undefined;
    },
    stopped: () => {
      problem(`did not answer the ${event} intercept within ${formatMs(timeoutMs)}; treated as allow`);
      return undefined;
    },
    closed: () => undefined,
  };
}
