/**
 * Whether a crashed extension is restarted: a budget of restarts within a
 * window, with a doubling delay (zot and vscode-languageclient give up after
 * a fifth crash within three minutes). Pluggable: the runtime only asks.
 */
import { formatMs } from '../results/outcomes.js';
import type { ExtensionStatus } from './state.js';
export type RestartVerdict =
  | { restart: true; attempt: number; max: number; delayMs: number }
  | { restart: false; crashes: number; windowMs: number };

export interface RestartPolicy {
  crashed(now: number): RestartVerdict;
  /** A requested start: the budget begins again. */
  reset(): void;
}

export interface RestartBudget { max: number; windowMs: number; baseDelayMs: number; maxDelayMs: number }

export function restartBudget(b: RestartBudget): RestartPolicy {
  let crashes: number[] = [];
  return {
    crashed(now) {
      crashes = crashes.filter((t) => now - t < b.windowMs);
      crashes.push(now);
      if (crashes.length > b.max) return { restart: false, crashes: crashes.length, windowMs: b.windowMs };
      return { restart: true, attempt: crashes.length, max: b.max, delayMs: Math.min(b.baseDelayMs * 2 ** (crashes.length - 1), b.maxDelayMs) };
    },
    reset() {
      crashes = [];
    },
  };
}

/** The state a crash leads to under the policy's verdict (`how`: how the process ended); the runtime adds the restart's timer. */
export function afterCrash(v: RestartVerdict, how: string, logPath: string): Extract<ExtensionStatus, { kind: 'failed' }> | Omit<Extract<ExtensionStatus, { kind: 'restarting' }>, 'timer'> {
  if (!v.restart) return { kind: 'failed', message: `crashed ${v.crashes} times within ${formatMs(v.windowMs)} (last: ${how}); not restarting it again. See its log at ${logPath}` };
  return { kind: 'restarting', attempt: v.attempt, max: v.max, delayMs: v.delayMs, message: `${how}; restarting in ${formatMs(v.delayMs)} (restart ${v.attempt} of ${v.max})` };
}
