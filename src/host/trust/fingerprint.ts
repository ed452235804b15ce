/**
 * The fingerprint a consent is keyed on: what the extension can run, hashed
 * so that any change asks again. That is exec, args and where exec resolves;
 * the content of every file in its folder (what it requires, sources or
 * imports lives there, node_modules included), bounded in count and size with
 * what was left out said; and the content of what it names outside the folder
 * (the executable, files named in args). Content is hashed, never trusted by
 * mtime; a digest is reused only while the file's ctime, which a user cannot
 * set back, is unchanged. Pure Node (no 'vscode').
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';
import { resolveExec, type FoundExtension } from '../index.js';

/** Bump when the fingerprint's inputs change, so old consents ask again. */
const FINGERPRINT_VERSION = 2;
/** Bounds of the folder walk: past them files are left out, and the consent prompt says how many. */
export const MAX_FOLDER_FILES = 20_000;
export const MAX_FOLDER_BYTES = 256 * 1024 * 1024;
/** Never part of what runs, and changed by every fetch. */
const SKIPPED_FOLDERS = new Set(['.git']);

export interface RunDescription {
  exec: string;
  args: string[];
  /** Where exec resolves to, or why it does not. */
  resolved: string;
  /** sha256 by path: relative for files in the folder, absolute for what it names outside it. */
  files: Record<string, string>;
  /** What the fingerprint does not cover, in words for the consent prompt; empty when it covers everything. */
  skipped: string[];
}

/** What would run, as far as it can be known before running it. */
export async function describeRun(found: Pick<FoundExtension, 'dir' | 'manifest'>, env: NodeJS.ProcessEnv = process.env, limits: Limits = LIMITS): Promise<RunDescription> {
  const m = found.manifest;
  const exec = m?.exec ?? '';
  const args = m?.args ?? [];
  const root = path.resolve(found.dir);
  const files: Record<string, string> = {};
  const skipped: string[] = [];
  const key = (p: string): string => (isInside(root, p) ? path.relative(root, p) : p);
  let resolved = '';
  // What it names comes first and in full, whatever the bounds.
  const named: string[] = [];
  if (exec) {
    const r = resolveExec(exec, found.dir, env);
    resolved = r.ok ? r.file : `unresolved: ${r.error}`;
    if (r.ok) named.push(path.resolve(r.file));
  }
  for (const a of args) named.push(...pathsIn(a).map((p) => path.resolve(root, p)));
  for (const p of named) {
    if (files[key(p)] !== undefined) continue;
    const digest = await hashFile(p).catch(() => undefined);
    if (digest !== undefined) files[key(p)] = digest;
  }
  await walk(root, root, files, skipped, { files: 0, bytes: 0, over: 0, ...limits });
  return { exec, args, resolved, files, skipped };
}

/** sha256 (hex) of everything that identifies what would run. */
export async function runFingerprint(found: Pick<FoundExtension, 'dir' | 'manifest'>, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const d = await describeRun(found, env);
  const sortedFiles = Object.keys(d.files).sort().map((k) => [k, d.files[k]]);
  const canonical = JSON.stringify([FINGERPRINT_VERSION, d.exec, d.args, d.resolved, sortedFiles, d.skipped]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** Candidate paths in one argument: itself, or the value of `--opt=value`. */
function pathsIn(arg: string): string[] {
  if (arg.includes('\0') || arg === '') return [];
  if (!arg.startsWith('-')) return [arg];
  const eq = arg.indexOf('=');
  return eq > 0 && eq < arg.length - 1 ? [arg.slice(eq + 1)] : [];
}

export interface Limits { maxFiles: number; maxBytes: number }
const LIMITS: Limits = { maxFiles: MAX_FOLDER_FILES, maxBytes: MAX_FOLDER_BYTES };
interface Budget extends Limits { files: number; bytes: number; over: number }

/** Every file under `dir`, in name order, within the budget; symlinks count by their target's path, not followed. */
async function walk(root: string, dir: string, files: Record<string, string>, skipped: string[], budget: Budget): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    skipped.push(`${path.relative(root, dir) || '.'} could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    const rel = path.relative(root, p);
    if (e.isDirectory()) {
      if (SKIPPED_FOLDERS.has(e.name)) continue;
      // A folder counts as a file, so a tree of empty folders is bounded too.
      if (++budget.files > budget.maxFiles) {
        budget.over++;
        continue;
      }
      await walk(root, p, files, skipped, budget);
    } else if (e.isSymbolicLink()) {
      files[rel] ??= `link:${await fsp.readlink(p).catch(() => '?')}`;
    } else if (e.isFile() && files[rel] === undefined) {
      const st = await fsp.stat(p).catch(() => undefined);
      if (!st) continue;
      if (budget.files + 1 > budget.maxFiles || budget.bytes + st.size > budget.maxBytes) {
        budget.over++;
        continue;
      }
      budget.files++;
      budget.bytes += st.size;
      const digest = await hashFile(p, st).catch(() => undefined);
      if (digest !== undefined) files[rel] = digest;
    }
  }
  if (dir === root && budget.over > 0) {
    skipped.push(`${budget.over} file${budget.over === 1 ? '' : 's'} in its folder (past ${budget.maxFiles} files or ${Math.round(budget.maxBytes / 1024 / 1024)} MiB) are not checked`);
  }
}

/** Digests by file, valid while nothing about the file's inode changed (ctime moves on every write and every utimes). */
const digests = new Map<string, { stamp: string; digest: string }>();

/** sha256 of a regular file's content; rejects for anything else. */
async function hashFile(file: string, known?: Stats): Promise<string> {
  const st = known ?? (await fsp.stat(file));
  if (!st.isFile()) throw new Error(`${file} is not a file`);
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const cached = digests.get(file);
  if (cached?.stamp === stamp) return cached.digest;
  const h = createHash('sha256');
  await new Promise<void>((resolve, reject) => {
    createReadStream(file).on('data', (c) => h.update(c)).on('end', resolve).on('error', reject);
  });
  const digest = h.digest('hex');
  if (digests.size > 50_000) digests.clear();
  digests.set(file, { stamp, digest });
  return digest;
}

function isInside(root: string, p: string): boolean {
  return p.startsWith(root + path.sep);
}
