/**
 * The fingerprint a consent is keyed on: what would run (exec, args, where
 * exec resolves, and the bytes of files inside the folder that would run),
 * hashed so that any change asks again. Pure Node (no 'vscode').
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { resolveExec, type FoundExtension } from '../index.js';

/** Bump when the fingerprint's inputs change, so old consents ask again. */
const FINGERPRINT_VERSION = 1;
/** Files larger than this are hashed by size and mtime only (a huge binary must not stall the window). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

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
