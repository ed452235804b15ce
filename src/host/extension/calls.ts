/**
 * The three kinds of request the host sends an extension, as specs for the
 * connection's request table: what each ending of a tool call, a command
 * and an intercept means for its caller.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { EventInterceptResponseFromExt, EventPayload, JsonObject } from '../../protocol/index.js';
import type { RequestSpec } from '../connection/requests.js';
import { checkImages } from '../content.js';
import { formatMs, stoppedMessage, type CommandOutcome, type ToolOutcome } from '../outcomes.js';

export function toolCallSpec(
  ext: string,
  name: string,
  args: JsonObject,
  opts: { token?: CancellationToken | undefined; timeoutMs: number; supportsCancel: boolean },
): RequestSpec<ToolOutcome> {
  const unfinished = (outcome: Exclude<ToolOutcome['outcome'], 'completed'>, message: string): ToolOutcome => ({ outcome, extension: ext, isError: true, content: [], message });
  const malformed = (problem: string): ToolOutcome => ({ outcome: 'completed', extension: ext, isError: true, content: [{ type: 'text', text: `malformed tool_result: ${problem}` }], message: `the extension sent a malformed tool_result: ${problem}` });
  return {
    frame: (id) => ({ type: 'tool_call', id, name, args }),
    token: opts.token,
    timeoutMs: opts.timeoutMs,
    reply: (frame) => {
      if (frame.type === 'tool_result') {
        const { content, undecodable } = checkImages(frame.content ?? [], `extension "${ext}" tool "${name}"`);
        if (undecodable) return { outcome: 'completed', extension: ext, isError: true, content, message: `the extension returned ${undecodable === 1 ? 'an image' : `${undecodable} images`} that could not be decoded` };
        return { outcome: 'completed', extension: ext, isError: frame.is_error === true, content, message: '' };
      }
      if (frame.type === 'error') return { outcome: 'completed', extension: ext, isError: true, content: [{ type: 'text', text: frame.message || 'the extension reported an error' }], message: 'the extension answered with an error frame' };
      return malformed(`answered with "${frame.type}"`);
    },
    malformed,
    notRun: (message) => unfinished('not_run', message),
    cancelFrame: opts.supportsCancel ? (id) => ({ type: 'tool_cancel', id }) : undefined,
    stopped: (why) => unfinished(why === 'timed_out' ? 'timed_out' : opts.supportsCancel ? 'canceled' : 'abandoned', stoppedMessage(why, opts.supportsCancel, opts.timeoutMs)),
    closed: (reason) => unfinished('disconnected', `extension "${ext}" ${reason} while the call was pending`),
  };
}

export function commandSpec(ext: string, name: string, args: string, opts: { token?: CancellationToken | undefined; timeoutMs: number }): RequestSpec<CommandOutcome> {
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
      if (frame.type === 'command_response') return { outcome: 'completed', extension: ext, response: frame, message: '' };
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
