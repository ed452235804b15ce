/**
 * Whether a workspace-provided zot extension may start: the decision, and the
 * fingerprint of what would run that a consent is keyed on. Pure Node (no
 * 'vscode'), so it is tested on its own.
 *
 * Like VS Code's own handling of workspace MCP servers: code the workspace
 * brings (project-local extensions, explicit paths from workspace settings)
 * never runs in an untrusted workspace, and in a trusted one only after the
 * user allowed exactly this code once. Any change to what would run (the
 * manifest's exec or args, the bytes of the executable or of a script named
 * in args inside the folder) asks again.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { FoundExtension } from '../../host/discovery.js';
import { resolveExec } from '../../host/manifest.js';

/** Bump when the fingerprint's inputs change, so old consents ask again. */
const FINGERPRINT_VERSION = 1;
/** Files larger than this are hashed by size and mtime only (a huge binary must not stall the window). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

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

/** Whether an extension is code the workspace brings, which needs trust and consent. */
export function needsConsent(found: Pick<FoundExtension, 'source' | 'dir'>, workspacePaths: ReadonlySet<string>): boolean {
  return found.source === 'project' || (found.source === 'explicit' && workspacePaths.has(path.resolve(found.dir)));
}

export function decide(input: { needsConsent: boolean; trusted: boolean; fingerprint: string; record: ConsentRecord | undefined }): ConsentDecision {
  if (!input.needsConsent) return { kind: 'start' };
  if (!input.trusted) return { kind: 'hold', reason: REASON_UNTRUSTED, ask: false, canAllow: false };
  const r = input.record;
  if (!r) return { kind: 'hold', reason: REASON_WAITING, ask: true, canAllow: true };
  if (r.fingerprint !== input.fingerprint) return { kind: 'hold', reason: REASON_CHANGED, ask: true, canAllow: true };
  return r.allowed ? { kind: 'start' } : { kind: 'hold', reason: REASON_DENIED, ask: false, canAllow: true };
}

/** The key a consent is stored under: the extension's folder. */
export function consentKey(dir: string): string {
  return path.resolve(dir);
}

export interface RunDescription {
  exec: string;
  args: string[];
  /** Where exec resolves to, or why it does not. */
  resolved: string;
  /** sha256 of files inside the folder that would run: the executable and scripts named in args. */
  files: Record<string, string>;
}

/** What would run, as far as it can be known before running it. */
export async function describeRun(found: Pick<FoundExtension, 'dir' | 'manifest'>, env: NodeJS.ProcessEnv = process.env): Promise<RunDescription> {
  const m = found.manifest;
  const exec = m?.exec ?? '';
  const args = m?.args ?? [];
  const root = path.resolve(found.dir);
  const inside = (p: string): boolean => p.startsWith(root + path.sep);
  const files: Record<string, string> = {};
  let resolved = '';
  if (exec) {
    const r = resolveExec(exec, found.dir, env);
    resolved = r.ok ? r.file : `unresolved: ${r.error}`;
    if (r.ok && inside(path.resolve(r.file))) files[path.relative(root, r.file)] = await hashFile(r.file);
  }
  for (const a of args) {
    if (a.startsWith('-') || a.includes('\0')) continue;
    const p = path.resolve(root, a);
    if (!inside(p) || files[path.relative(root, p)] !== undefined) continue;
    const digest = await hashFile(p).catch(() => undefined);
    if (digest !== undefined) files[path.relative(root, p)] = digest;
  }
  return { exec, args, resolved, files };
}

/** sha256 (hex) of everything that identifies what would run. */
export async function runFingerprint(found: Pick<FoundExtension, 'dir' | 'manifest'>, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const d = await describeRun(found, env);
  const sortedFiles = Object.keys(d.files).sort().map((k) => [k, d.files[k]]);
  const canonical = JSON.stringify([FINGERPRINT_VERSION, d.exec, d.args, d.resolved, sortedFiles]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** sha256 of a regular file; rejects for anything else. */
async function hashFile(file: string): Promise<string> {
  const st = await fsp.stat(file);
  if (!st.isFile()) throw new Error(`${file} is not a file`);
  if (st.size > MAX_HASHED_BYTES) return `size:${st.size}:mtime:${st.mtimeMs}`;
  const h = createHash('sha256');
  await new Promise<void>((resolve, reject) => {
    createReadStream(file).on('data', (c) => h.update(c)).on('end', resolve).on('error', reject);
  });
  return h.digest('hex');
}
