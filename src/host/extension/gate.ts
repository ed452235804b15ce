/**
 * Whether an extension found on disk may start: the gate a front end gives
 * the host (workspace trust and consent in the editor), asked before each
 * start, never bypassed by a gate that fails.
 */
import type { FoundExtension } from '../discovery/discover.js';
import type { HoldReason } from './state.js';

/** The gate itself: asked with what was found, before the extension starts. */
export type Gate = (ext: FoundExtension) => GateDecision | Promise<GateDecision>;

/** `hold` says why, for views to switch on; `reason` says it in a sentence. Default hold: 'consent'. */
export type GateDecision = { start: true } | { start: false; reason: string; hold?: HoldReason };

/** The gate's answer; a gate that throws or rejects holds the extension, saying why (it never lets it through). */
export async function askGate(gate: Gate, found: FoundExtension): Promise<GateDecision> {
  try {
    return await gate(found);
  } catch (err) {
    return { start: false, reason: `could not check whether it may run: ${(err as Error)?.message ?? String(err)}` };
  }
}
