/**
 * How each tool call of @zot ended, in the chat's own terms, and the words
 * the model reads for it: in the turn itself and when the call is replayed
 * in a later turn. Every way a call can end says what happened and what the
 * model can do about it. The host's outcome is read only in `callEnd`.
 */
import type { ContentBlock } from '../../protocol/index.js';
import { NEVER_STARTED_OUTCOME, type ToolOutcome } from '../../host/index.js';
import { STOP_SETTLE_MS } from './limits.js';

export type CallEnd =
  | 'completed'
  | 'error'
  | 'timed_out'
  | 'canceled'
  | 'abandoned'
  | 'not_run'
  | 'disconnected'
  /** The user pressed Stop and the extension's result came only afterwards: dropped. */
  | 'late_result';

export interface CallEnding {
  end: CallEnd;
  /** The host's sentence for anything but a completion. */
  message: string;
  /** The extension that has the tool, when one does. */
  extension: string | null;
  /** The result's blocks; for a call an interceptor blocked, its reason. */
  content: readonly ContentBlock[];
  /** zot's structured_content of an answer, when it sent one. */
  structured?: unknown;
}

export function callEnd(o: ToolOutcome): CallEnding {
  const end: CallEnd = o.outcome === 'completed' ? (o.isError ? 'error' : 'completed') : o.outcome;
  const ending: CallEnding = { end, message: o.message, extension: o.extension, content: o.content, ...(o.outcome === 'completed' && o.structured !== undefined && { structured: o.structured }) };
  // The host waited after Stop and the extension answered anyway (ToolCallOptions.lateWithinMs).
  return o.outcome !== 'completed' && o.late ? lateResult(ending) : ending;
}

/** The ending of a call the model asked for in the same step, after the user stopped the turn before it started. */
export const NEVER_STARTED: CallEnding = callEnd(NEVER_STARTED_OUTCOME);

/** The ending of a canceled call whose extension answered after Stop anyway: the answer itself is dropped. */
export function lateResult(e: CallEnding): CallEnding {
  return { ...e, end: 'late_result', message: `the extension sent its result within ${STOP_SETTLE_MS} ms after Stop`, content: [] };
}

/**
 * The sentence the model reads for a call that did not simply complete.
 * `byStop`: the user's Stop ended the call.
 */
export function wordsForModel(e: CallEnding, byStop: boolean): string {
  const m = e.message.replace(/[.\s]+$/, '');
  switch (e.end) {
    case 'completed':
    case 'error':
      return '';
    case 'canceled':
      return byStop
        ? 'interrupted: the user pressed Stop while this call was running. The extension was told to stop and the call produced no result; work it had begun may be partly done. Ask the user before running it again.'
        : `${m}. The call produced no result; work it had begun may be partly done.`;
    case 'abandoned':
      return byStop
        ? 'interrupted: the user pressed Stop while this call was running, but this extension cannot be told to stop (it does not support tool_cancel). The call may still be running and its effects may still happen; its result will never arrive. Check its effects before running it again.'
        : `abandoned: ${m}. The call may still be running and its effects may still happen; its result will never arrive.`;
    case 'late_result':
      return 'interrupted: the user pressed Stop while this call was running. The extension finished the call after Stop, so it may have taken effect, but its result was dropped. Check its effects before running it again.';
    case 'timed_out':
      return `${m}. The call produced no result; work it had begun may be partly done.`;
    case 'not_run':
      return `not run: ${m}. The call never reached the extension, so it had no effect.`;
    case 'disconnected':
      return `failed: ${m}. Whether the call took effect is unknown, and the tool is unavailable until its extension runs again.`;
  }
}
