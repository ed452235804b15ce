/**
 * The fingerprint a consent is keyed on: what the extension can run, hashed
 * so that any change to code asks again, and only to code.
 *
 * Code: exec, args and where exec resolves; the content of the executable and
 * of every file `args` names, wherever they are; and the content of the files
 * in its folder (what it requires, sources or imports lives there,
 * node_modules included), bounded in count and size with what was left out
 * said. A symbolic link counts as what it points to, wherever that is: a
 * linked file by its content, a linked folder by the files in it.
 *
 * Data is not code. zot gives an extension its own folder as `data_dir`, so
 * extensions save their data there (the todo sample's todos.json). When the
 * folder is in a git work tree, a file that git does not track and that is not
 * code by its kind (not executable, no script or library suffix, not a
 * manifest, not under a dependency folder such as node_modules or Yarn's
 * .yarn) is the extension's data: it may
 * change without a new question. Whatever a repository brings is tracked (a
 * clone cannot bring untracked files), so every change a pull or checkout
 * makes asks again; a file moving from data to tracked changes the set and
 * asks again too. Outside a git work tree (or where git cannot say) every
 * file counts. git is asked with its file-system monitor off, and nothing
 * else of the repository's configuration runs.
 *
 * Names are bytes: the folder is read and git's answer taken as raw bytes, so
 * a name that is not UTF-8 (a byte 0xff) is found, hashed and compared like
 * any other. Such a name is never data: it always counts.
 *
 * Content is hashed, never trusted by mtime; a digest is reused only while
 * the file's ctime, which a user cannot set back, is unchanged. Pure Node (no
 * 'vscode').
 */
import { isUtf8 } from 'node:buffer';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp, type Dirent, type Stats } from 'node:fs';
import * as path from 'node:path';
import { hostProgram, resolveExec, type FoundExtension } from '../../host/index.js';

/** Bump when the fingerprint's inputs change, so old consents ask again. */
const FINGERPRINT_VERSION = 3;
/** Bounds of the folder walk: past them files are left out, and the consent prompt says how many. */
export const MAX_FOLDER_FILES = 20_000;
export const MAX_FOLDER_BYTES = 256 * 1024 * 1024;
/** Never part of what runs, and changed by every fetch. */
const SKIPPED_FOLDERS = new Set(['.git']);

/** Suffixes of files that run, or that a runtime loads as code. */
const CODE_SUFFIXES = new Set([
  '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx', '.node', '.wasm', '.map',
  '.py', '.pyc', '.pyo', '.pyd', '.pyi', '.pth', '.so', '.dylib', '.dll', '.exe', '.a',
  '.sh', '.bash', '.zsh', '.fish', '.ps1', '.bat', '.cmd', '.go', '.rb', '.pl', '.pm', '.php', '.lua', '.tcl',
  '.jar', '.class', '.rs', '.c', '.h', '.cc', '.cpp', '.java', '.kt', '.swift', '.cs', '.r', '.jl', '.ex', '.exs', '.erl', '.beam',
]);
/** Files that decide what runs though they hold no program. */
const CODE_NAMES = new Set([
  'extension.json', 'package.json', 'package-lock.json', 'npm-shrinkwrap.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnp.cjs',
  'go.mod', 'go.sum', 'go.work', 'pyproject.toml', 'setup.cfg', 'requirements.txt', 'pyvenv.cfg', 'Pipfile', 'Pipfile.lock',
  'Makefile', 'Gemfile', 'Gemfile.lock', 'Cargo.toml', 'Cargo.lock', '.env', 'tsconfig.json', 'deno.json', 'bunfig.toml',
  // Yarn Plug'n'Play resolves and loads dependencies through these, as Node does through node_modules.
  '.pnp.js', '.pnp.loader.mjs', '.pnp.data.json',
  // The other package managers' lock files, as package-lock.json.
  'yarn.lock', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'bun.lock', 'bun.lockb', 'deno.jsonc', 'deno.lock', 'go.work.sum',
  'poetry.lock', 'uv.lock', 'pdm.lock',
]);
/**
 * Folders whose every file is code: dependencies and interpreters' caches.
 * `.yarn` holds Yarn's dependencies (cache/*.zip, unplugged/) as node_modules
 * holds npm's; `__pypackages__` is Python's (PEP 582).
 */
const CODE_FOLDERS = new Set(['node_modules', 'site-packages', 'dist-packages', '.venv', 'venv', '__pycache__', 'vendor', '.yarn', '__pypackages__']);

/** Whether a file is code by its kind (the rule for files git does not track). */
export function isCodeFile(relative: string, mode: number): boolean {
  if (mode & 0o111) return true;
  const parts = relative.split(/[\\/]/);
  const base = parts[parts.length - 1] ?? '';
  if (CODE_NAMES.has(base) || CODE_SUFFIXES.has(path.extname(base).toLowerCase())) return true;
  return parts.slice(0, -1).some((p) => CODE_FOLDERS.has(p));
}

export interface RunDescription {
  exec: string;
  args: string[];
  /** Where exec resolves to, or why it does not. */
  resolved: string;
  /** sha256 by path: relative for files in the folder, absolute for what it names outside it (a name that is not UTF-8 as nameKey gives it). */
  files: Record<string, string>;
  /** What the fingerprint does not cover, in words for the consent prompt; empty when it covers everything. */
  skipped: string[];
  /** Files in its folder counted as its data (untracked in a git work tree, not code), relative, sorted. */
  data: string[];
  /** Whether the folder is in a git work tree whose tracked files decided what is data. */
  git: boolean;
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
  const tracked = await trackedFiles(root, env);
  const data: string[] = [];
  const rootBytes = Buffer.from(root);
  const walker: Walker = { root, files, skipped, data, tracked, seen: new Set([await realKey(rootBytes)]) };
  await walk(walker, rootBytes, Buffer.alloc(0), false, { files: 0, bytes: 0, over: 0, ...limits });
  return { exec, args, resolved, files, skipped, data: data.sort(), git: tracked !== undefined };
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

interface Walker {
  root: string;
  files: Record<string, string>;
  skipped: string[];
  data: string[];
  /** What git tracks in the folder (relative paths as nameKey gives them), or undefined outside a git work tree. */
  tracked: ReadonlySet<string> | undefined;
  /** Real paths of the folders walked (as nameKey gives them), so a link back into one is not walked twice. */
  seen: Set<string>;
}

/**
 * A name or path as a string key: its text when it is UTF-8; otherwise its
 * text (undecodable bytes replaced) then a NUL, which no file name holds, and
 * its bytes in hex. Two names never share a key, and a UTF-8 name keeps the
 * key it always had.
 */
function nameKey(bytes: Buffer): string {
  return isUtf8(bytes) ? bytes.toString('utf8') : `${bytes.toString('utf8')}\0${bytes.toString('hex')}`;
}

const SEP = Buffer.from(path.sep);

function join(dir: Buffer, name: Buffer): Buffer {
  return dir.length === 0 || dir.subarray(-SEP.length).equals(SEP) ? Buffer.concat([dir, name]) : Buffer.concat([dir, SEP, name]);
}

/** A relative path with "/" between its names, as git writes it. */
function gitPath(rel: Buffer): Buffer {
  if (path.sep === '/') return rel;
  // The separator is ASCII, so it never stands inside a multi-byte character.
  const out = Buffer.from(rel);
  for (let i = 0; i < out.length; i++) if (out[i] === 0x5c) out[i] = 0x2f;
  return out;
}

async function realKey(p: Buffer): Promise<string> {
  return nameKey(await fsp.realpath(p, { encoding: 'buffer' }).catch(() => p));
}

/**
 * Every file under `dir`, in name order, within the budget. A symbolic link
 * is followed: a file by its content, a folder walked (once per real path);
 * files reached through a link are always code.
 */
async function walk(w: Walker, dir: Buffer, relDir: Buffer, viaLink: boolean, budget: Budget): Promise<void> {
  // Names as bytes: a name decoded as UTF-8 would be lost where it is not UTF-8 (its stat fails on the altered name).
  let entries: Dirent<Buffer>[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (err) {
    w.skipped.push(`${relDir.toString('utf8') || '.'} could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return;
  }
  const named = entries.map((e) => ({ e, name: nameKey(e.name) }));
  named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { e, name } of named) {
    const p = join(dir, e.name);
    const relBytes = join(relDir, e.name);
    const rel = nameKey(relBytes);
    if (e.isDirectory()) {
      if (SKIPPED_FOLDERS.has(name)) continue;
      if (!(await enterFolder(w, p, budget))) continue;
      await walk(w, p, relBytes, viaLink, budget);
    } else if (e.isSymbolicLink()) {
      await followLink(w, p, relBytes, budget);
    } else if (e.isFile() && w.files[rel] === undefined) {
      const st = await fsp.stat(p).catch(() => undefined);
      if (!st) continue;
      // A name that is not UTF-8 is never data: it could not be shown as such, and it counts like code.
      if (!viaLink && w.tracked && isUtf8(relBytes) && !w.tracked.has(nameKey(gitPath(relBytes))) && !isCodeFile(rel, st.mode)) {
        w.data.push(rel);
        continue;
      }
      await hashInto(w, p, rel, st, budget);
    }
  }
  if (relDir.length === 0 && budget.over > 0) {
    w.skipped.push(`${budget.over} file${budget.over === 1 ? '' : 's'} in its folder (past ${budget.maxFiles} files or ${Math.round(budget.maxBytes / 1024 / 1024)} MiB) are not checked`);
  }
}

/** Counts a folder against the budget (a tree of empty folders is bounded too) and marks its real path walked. */
async function enterFolder(w: Walker, p: Buffer, budget: Budget, known?: string): Promise<boolean> {
  const real = known ?? (await realKey(p));
  if (w.seen.has(real)) return false;
  if (++budget.files > budget.maxFiles) {
    budget.over++;
    return false;
  }
  w.seen.add(real);
  return true;
}

/** A link counts as its text and what it points to: a file's content, a folder's files; a dangling link or a loop as such. */
async function followLink(w: Walker, p: Buffer, relBytes: Buffer, budget: Budget): Promise<void> {
  const rel = nameKey(relBytes);
  const text = await fsp.readlink(p, { encoding: 'buffer' }).then(nameKey, () => '?');
  const st = await fsp.stat(p).catch((err: NodeJS.ErrnoException) => err.code ?? 'error');
  if (typeof st === 'string') {
    w.files[rel] ??= `link:${text} (${st === 'ENOENT' ? 'missing' : st})`;
    return;
  }
  if (st.isDirectory()) {
    const real = await realKey(p);
    w.files[rel] ??= `link:${text} (folder)`;
    if (w.seen.has(real)) return; // a loop, or a folder walked already: its files are counted where they were found
    if (!(await enterFolder(w, p, budget, real))) return;
    await walk(w, p, relBytes, true, budget);
  } else if (st.isFile() && w.files[rel] === undefined) {
    await hashInto(w, p, rel, st, budget, `link:${text} `);
  } else {
    w.files[rel] ??= `link:${text} (not a file)`;
  }
}

async function hashInto(w: Walker, p: Buffer, rel: string, st: Stats, budget: Budget, prefix = ''): Promise<void> {
  if (budget.files + 1 > budget.maxFiles || budget.bytes + st.size > budget.maxBytes) {
    budget.over++;
    return;
  }
  budget.files++;
  budget.bytes += st.size;
  const digest = await hashFile(p, st).catch(() => undefined);
  if (digest !== undefined) w.files[rel] = prefix + digest;
}

/** Most bytes of `git ls-files` output read; past it git's answer is not used (every file counts). */
const MAX_GIT_OUTPUT = 64 * 1024 * 1024;

/**
 * The files git tracks under `dir` (relative, with "/", as nameKey gives
 * them: git's bytes, so a name that is not UTF-8 matches only itself), or undefined when
 * `dir` is not in a git work tree or git cannot say (not installed, a
 * repository it refuses, a time-out). Only git's own index is read: its
 * file-system monitor is switched off, and git's variables of the caller's
 * environment are dropped so they cannot point it elsewhere.
 */
export function trackedFiles(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<ReadonlySet<string> | undefined> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('GIT_')) clean[k] = v;
  clean.GIT_OPTIONAL_LOCKS = '0';
  return new Promise((resolve) => {
    // With -z git writes names unquoted, as their bytes; they are kept as bytes, not decoded.
    // git by its full path: by its bare name Windows would look for a git.exe in the extension's folder first.
    const git = hostProgram('git', env);
    if (!git) return resolve(undefined);
    execFile(git, ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', 'ls-files', '-z', '--cached', '--recurse-submodules', '--', '.'], { cwd: dir, env: clean, encoding: 'buffer', maxBuffer: MAX_GIT_OUTPUT, timeout: 10_000, windowsHide: true }, (err, stdout) => {
      if (err) return resolve(undefined);
      const tracked = new Set<string>();
      for (let start = 0, end = stdout.indexOf(0); end !== -1; start = end + 1, end = stdout.indexOf(0, start)) {
        if (end > start) tracked.add(nameKey(stdout.subarray(start, end)));
      }
      resolve(tracked);
    });
  });
}

/** Digests by file, valid while nothing about the file's inode changed (ctime moves on every write and every utimes). */
const digests = new Map<string, { stamp: string; digest: string }>();

/** sha256 of a regular file's content; rejects for anything else. */
async function hashFile(file: string | Buffer, known?: Stats): Promise<string> {
  const st = known ?? (await fsp.stat(file));
  const name = typeof file === 'string' ? file : nameKey(file);
  if (!st.isFile()) throw new Error(`${name} is not a file`);
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const cached = digests.get(name);
  if (cached?.stamp === stamp) return cached.digest;
  const h = createHash('sha256');
  await new Promise<void>((resolve, reject) => {
    createReadStream(file).on('data', (c) => h.update(c)).on('end', resolve).on('error', reject);
  });
  const digest = h.digest('hex');
  if (digests.size > 50_000) digests.clear();
  digests.set(name, { stamp, digest });
  return digest;
}

function isInside(root: string, p: string): boolean {
  return p.startsWith(root + path.sep);
}
