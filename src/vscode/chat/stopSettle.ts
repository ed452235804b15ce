/**
 * After Stop, the truth about the call that was running. The host resolves
 * a canceled call at once and sends tool_cancel; an extension that honours
 * it stays silent, one that finishes anyway sends its result late, and the
 * host drops it. Waiting a bounded time for that tells the two apart, so the
 * next turn can say which happened.
 */
import type { ZotHost } from '../../host/index.js';
import { lateResult, type CallEnding } from './callOutcome.js';

const POLL_MS = 25;

/**
 * The call's ending once its extension had `ms` to answer the cancel.
 * Only a canceled call waits: the extension was told and may still answer.
 */
export async function settleAfterStop(host: ZotHost, ending: CallEnding, ms: number): Promise<CallEnding> {
  const { extension } = ending;
  if (ending.end !== 'canceled' || !extension) return ending;
  const before = lateReplies(host, extension);
  if (before === undefined) return ending;
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
    const now = lateReplies(host, extension);
    if (now === undefined) return ending;
    if (now > before) return lateResult(ending);
  }
  return ending;
}

/**
 * Replies the host dropped for this extension because nobody waited for them
 * any more: the one trace a result that came after Stop leaves. A chat turn
 * runs one call at a time, so a new one in the window is this call's.
 */
function lateReplies(host: ZotHost, extension: string): number | undefined {
  return host.get(extension)?.lateReplies;
}
