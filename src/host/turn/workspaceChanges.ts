/**
 * terva's `workspace_changed` (docs/TERVA.md 18), from a file watcher's raw
 * events of one run: the net change per path (created then deleted is
 * nothing, deleted then created is modified, created then changed is added,
 * changed then deleted is deleted), relative to the workspace root with `/`,
 * sorted by path. `.git` is skipped and whatever the `ignored` predicate
 * names (a front end's exclude settings) is dropped as it arrives; past a
 * bound on the paths of one run the list is given up, since terva prefers no
 * event to a wrong one. Pure: no file system, no clock.
 */
import path from 'node:path';

/** What a file watcher reports of one path. */
export type WatchKind = 'created' | 'changed' | 'deleted';
/** The net change of one path over a run, as `workspace_changed` names it. */
export type ChangeKind = 'added' | 'modified' | 'deleted';
export interface WorkspaceChange { path: string; change: ChangeKind }

/** Most distinct paths one run may change; past it the run sends no `workspace_changed`. */
export const MAX_WORKSPACE_CHANGES = 5000;

type PathApi = Pick<typeof path.posix, 'relative' | 'isAbsolute' | 'sep'>;

export interface NetChangeOptions {
  /** A path the front end leaves out (relative with `/`, and as the watcher gave it). */
  ignored?(rel: string, abs: string): boolean;
  /** The bound on distinct paths; default MAX_WORKSPACE_CHANGES. */
  max?: number;
  /** Told once, the moment the bound is passed. */
  onOverflow?(message: string): void;
  /** The platform's path rules; default the running platform's. */
  pathApi?: PathApi;
}

/** Whether a path existed when the run began and whether it exists after the last event. */
interface PathState { before: boolean; now: boolean }

/** The outcome of one run: the list to send (empty when nothing changed), or why none is sent. */
export type NetChangeResult = { files: WorkspaceChange[] } | { skipped: string };

export class NetChanges {
  private readonly states = new Map<string, PathState>();
  private overflow: string | undefined;
  private readonly pathApi: PathApi;
  private readonly max: number;

  constructor(private readonly root: string, private readonly opts: NetChangeOptions = {}) {
    this.pathApi = opts.pathApi ?? path;
    this.max = opts.max ?? MAX_WORKSPACE_CHANGES;
  }

  /** Whether the run changed too many paths for a list. */
  get overflowed(): boolean { return this.overflow !== undefined; }

  /** One watcher event, in the order the watcher reported it. */
  record(kind: WatchKind, abs: string): void {
    if (this.overflow !== undefined) return;
    const rel = this.relative(abs);
    if (rel === undefined || this.opts.ignored?.(rel, abs)) return;
    const state = this.states.get(rel);
    if (state) {
      state.now = kind !== 'deleted';
      return;
    }
    if (this.states.size >= this.max) {
      this.overflow = `workspace_changed: more than ${this.max} paths changed in this run; no event is sent for it`;
      this.states.clear();
      this.opts.onOverflow?.(this.overflow);
      return;
    }
    // The first event says whether it was there before: only a created path was not.
    this.states.set(rel, { before: kind !== 'created', now: kind !== 'deleted' });
  }

  /** The net change so far, sorted by path (as bytes, as terva sorts), or why there is none to send. */
  result(): NetChangeResult {
    if (this.overflow !== undefined) return { skipped: this.overflow };
    const files: WorkspaceChange[] = [];
    for (const [p, s] of this.states) {
      const change = netChange(s);
      if (change) files.push({ path: p, change });
    }
    return { files: sortChanges(files) };
  }

  /** The path relative to the root with `/`, or undefined for the root itself, a path outside it and anything in `.git`. */
  private relative(abs: string): string | undefined {
    const rel = this.pathApi.relative(this.root, abs);
    if (rel === '' || this.pathApi.isAbsolute(rel)) return undefined;
    const parts = rel.split(this.pathApi.sep === '\\' ? /[\\/]/ : '/');
    if (parts[0] === '..' || parts.includes('.git')) return undefined;
    return parts.join('/');
  }
}

function netChange(s: PathState): ChangeKind | undefined {
  if (s.before) return s.now ? 'modified' : 'deleted';
  return s.now ? 'added' : undefined;
}

/** The changes ordered by path, comparing UTF-8 bytes. */
export function sortChanges(files: WorkspaceChange[]): WorkspaceChange[] {
  return files.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

/** The net change of a whole run's events at once. */
export function netChanges(root: string, events: Iterable<{ kind: WatchKind; path: string }>, opts?: NetChangeOptions): NetChangeResult {
  const net = new NetChanges(root, opts);
  for (const e of events) net.record(e.kind, e.path);
  return net.result();
}

/**
 * A matcher for VS Code's `files.watcherExclude` (glob → true): a relative
 * glob is matched against the path relative to the workspace folder, an
 * absolute one against the whole path (with `/`). `**` spans folders, `*`
 * and `?` stay within one name, `{a,b}` and `[…]` as in VS Code's globs.
 */
export function excludeMatcher(globs: unknown): (rel: string, abs: string) => boolean {
  const relative: RegExp[] = [];
  const absolute: RegExp[] = [];
  if (typeof globs === 'object' && globs !== null && !Array.isArray(globs)) {
    for (const [glob, on] of Object.entries(globs)) {
      if (on !== true || !glob) continue;
      const g = glob.replace(/\\/g, '/');
      (g.startsWith('/') || /^[A-Za-z]:\//.test(g) ? absolute : relative).push(globToRegExp(g));
    }
  }
  if (relative.length === 0 && absolute.length === 0) return () => false;
  return (rel, abs) => {
    if (relative.some((r) => r.test(rel))) return true;
    if (absolute.length === 0) return false;
    const whole = abs.replace(/\\/g, '/');
    return absolute.some((r) => r.test(whole));
  };
}

/** A glob as an anchored regular expression over paths with `/`. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${globSource(glob)}$`);
}

function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const atStart = i === 0 || glob[i - 1] === '/';
      let j = i;
      while (glob[j] === '*') j++;
      const atEnd = j === glob.length || glob[j] === '/';
      if (atStart && atEnd) {
        if (j === glob.length) {
          // A trailing `/**` takes the folder itself and all below it; `**` alone takes everything.
          if (out.endsWith('/')) out = `${out.slice(0, -1)}(?:/.*)?`;
          else out += '.*';
        } else {
          out += '(?:[^/]*/)*';
          j++;
        }
        i = j - 1;
        continue;
      }
      out += '[^/]*';
      i = j - 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const end = closing(glob, i);
      if (end < 0) {
        out += '\\{';
        continue;
      }
      out += `(?:${splitTop(glob.slice(i + 1, end)).map(globSource).join('|')})`;
      i = end;
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = end;
    } else out += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return out;
}

/** Where the brace group opening at `open` closes, or -1. */
function closing(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** A brace group's alternatives, split at its own commas. */
function splitTop(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
