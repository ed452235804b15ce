/**
 * Whether a workspace-provided zot extension may start, given the workspace's
 * trust and the consent recorded for the fingerprint of what would run
 * (fingerprint.ts). Pure Node (no 'vscode'), so it is tested on its own.
 *
 * Like VS Code's own handling of workspace MCP servers: code the workspace
 * brings (project-local extensions, explicit paths from workspace settings,
 * extensions under a zot home the workspace set) never runs in an untrusted workspace, and in a trusted one only after the
 * user allowed exactly this code once. Any change to what would run (the
 * manifest's exec or args, the bytes of the executable or of a script named
 * in args inside the folder) asks again.
 */
import * as path from 'node:path';
import type { FoundExtension, HoldReason } from '../../host/index.js';

export interface ConsentRecord {
  fingerprint: string;
  allowed: boolean;
  /** ms since the epoch, for display. */
  at: number;
}

/** Consents of one workspace, by extension folder. */
export type ConsentStore = Record<string, ConsentRecord>;

export type ConsentDecision =
  | { kind: 'start' }
  | {
    kind: 'hold';
    /** Why, for views to switch on. */
    hold: HoldReason;
    reason: string;
    /** Ask the user now (first time, or what would run changed). */
    ask: boolean;
    /** Whether an explicit "Allow" can start it (false while the workspace is untrusted). */
    canAllow: boolean;
  };

export const REASON_UNTRUSTED = 'workspace is not trusted';
export const REASON_WAITING = 'waiting for your permission to run code from this workspace';
export const REASON_CHANGED = 'changed since you allowed it; waiting for your permission again';
export const REASON_DENIED = 'not allowed in this workspace (you chose "Don\'t Allow")';

/**
 * Whether an extension is code the workspace brings, which needs trust and
 * consent: project-local ones, explicit folders from workspace settings, and
 * every "global" one when the zot home itself was chosen by the workspace
 * (`zot.home` in .vscode/settings.json points into the workspace's own code).
 */
export function needsConsent(found: Pick<FoundExtension, 'source' | 'dir'>, workspacePaths: ReadonlySet<string>, homeFromWorkspace = false): boolean {
  if (found.source === 'project') return true;
  if (found.source === 'global') return homeFromWorkspace;
  return workspacePaths.has(path.resolve(found.dir));
}

export function decide(input: { needsConsent: boolean; trusted: boolean; fingerprint: string; record: ConsentRecord | undefined }): ConsentDecision {
  if (!input.needsConsent) return { kind: 'start' };
  if (!input.trusted) return { kind: 'hold', hold: 'untrusted', reason: REASON_UNTRUSTED, ask: false, canAllow: false };
  const r = input.record;
  if (!r) return { kind: 'hold', hold: 'consent', reason: REASON_WAITING, ask: true, canAllow: true };
  if (r.fingerprint !== input.fingerprint) return { kind: 'hold', hold: 'changed', reason: REASON_CHANGED, ask: true, canAllow: true };
  return r.allowed ? { kind: 'start' } : { kind: 'hold', hold: 'denied', reason: REASON_DENIED, ask: false, canAllow: true };
}

/** The key a consent is stored under: the extension's folder. */
export function consentKey(dir: string): string {
  return path.resolve(dir);
}
