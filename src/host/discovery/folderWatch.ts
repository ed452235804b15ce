/**
 * Watches extension folders and reports, debounced, which files of which
 * extension changed, for a front end to restart it (`zot-host watch`, the
 * editor's Watch Extension). Dependencies, VCS data and editors' swap files
 * are not the extension's code: their changes are not reported, and on Linux
 * their folders are not watched at all (each watched folder is an inotify
 * watch, a budget shared by every program of the user). Links to folders are
 * not followed, so a link loop cannot stop the watch.
 *
 * A restart storm is bounded: an extension that writes into its own folder
 * (zot's `data_dir` is that folder) would be restarted by every write its
 * start makes. A change that comes while the reaction to the last one (the
 * restart) is still running, or within STORM_WINDOW_MS after it ended, follows
 * on from it; after MAX_STORM_REPORTS reports in a row of which each but the
 * first followed on, the watch pauses, saying so, until its folder has been
 * quiet for STORM_WINDOW_MS; the next change after that is reported again.
 * Counting from the end of each restart, not by the clock alone, keeps the
 * bound the same on a slow or loaded machine, where a restart takes longer.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WATCH_DEBOUNCE_MS = 300;
/** Reports (restarts) in a row, each following on from the one before, past which an extension's watch pauses. */
export const MAX_STORM_REPORTS = 8;
export const STORM_WINDOW_MS = 5_000;
/** Folders watched per extension on Linux; deeper or further ones are not, and the watcher says so once. */
export const MAX_WATCHED_FOLDERS = 1_000;

export interface WatchTarget { name: string; dir: string }

/** Folders whose churn is not an edit of the extension. */
const IGNORED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache']);

/** Editors' temporary and swap files (vim, emacs, JetBrains, atomic-save temporaries). */
function ignoredFile(base: string): boolean {
  return base.endsWith('~') || /^\.?#/.test(base) || /\.(swp|swx|swo|tmp|partial)$/.test(base) || base === '4913' || base === '.DS_Store';
}

export function isIgnoredChange(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  if (parts.slice(0, -1).some((p) => IGNORED_DIRS.has(p))) return true;
  return ignoredFile(parts[parts.length - 1] ?? '');
}

/** One extension's folder tree: native recursion where the platform has it (one handle), else a watch per folder. */
class TreeWatch {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private saidBound = false;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly onChange: (relative: string) => void,
    private readonly onError: (message: string) => void,
    private readonly recursive = process.platform === 'darwin' || process.platform === 'win32',
  ) {}

  /** Throws when the folder itself cannot be watched. */
  start(): void {
    if (this.recursive) {
      const w = fs.watch(this.root, { recursive: true, persistent: true });
      w.on('change', (_e, file) => this.onChange(typeof file === 'string' ? file : file ? file.toString() : ''));
      w.on('error', (err) => this.fail(`watching ${this.root} failed: ${err.message}`));
      this.watchers.set(this.root, w);
      return;
    }
    this.watchFolder(this.root, true);
    this.walk(this.root);
  }

  get folders(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private fail(message: string): void {
    if (this.closed) return;
    this.close();
    this.onError(message);
  }

  /** Watches the folders under `dir` that are not ignored, never through a link. */
  private walk(dir: string): void {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // gone or unreadable: its own watcher (or its parent's) says what happens next
    }
    for (const e of entries) {
      if (!e.isDirectory() || IGNORED_DIRS.has(e.name)) continue;
      const p = path.join(dir, e.name);
      if (this.watchFolder(p, false)) this.walk(p);
    }
  }

  private watchFolder(dir: string, isRoot: boolean): boolean {
    if (this.closed || this.watchers.has(dir)) return false;
    if (this.watchers.size >= MAX_WATCHED_FOLDERS) {
      if (!this.saidBound) this.onError(`watching only ${MAX_WATCHED_FOLDERS} folders of ${this.root}; changes in the others are not seen`);
      this.saidBound = true;
      return false;
    }
    let w: fs.FSWatcher;
    try {
      w = fs.watch(dir, { persistent: true });
    } catch (err) {
      if (isRoot) throw err;
      return false;
    }
    w.on('change', (event, file) => {
      const name = typeof file === 'string' ? file : file ? file.toString() : '';
      const full = name ? path.join(dir, name) : dir;
      this.onChange(path.relative(this.root, full));
      // A new folder (created or moved in) is watched from now on.
      if (event === 'rename' && name && !IGNORED_DIRS.has(name)) {
        const st = fs.lstatSync(full, { throwIfNoEntry: false });
        if (st?.isDirectory() && this.watchFolder(full, false)) this.walk(full);
      }
    });
    w.on('error', (err) => {
      if (dir === this.root) return this.fail(`watching ${this.root} failed: ${err.message}`);
      // A folder inside that went away: its watch ends with it.
      w.close();
      this.watchers.delete(dir);
    });
    this.watchers.set(dir, w);
    return true;
  }
}

interface Watched {
  dir: string;
  tree: TreeWatch;
  timer: NodeJS.Timeout | undefined;
  files: Set<string>;
  /** Reactions to its reports still running (a restart takes a while). */
  reacting: number;
  /** When the last reaction ended (0: none yet). */
  reactedAt: number;
  /** Whether the pending burst began while a reaction ran, or within the storm window after one. */
  followsOn: boolean;
  /** Reports in a row, each but the first following on from the one before. */
  streak: number;
  /** Paused by a restart storm: resumes when this quiet timer fires. */
  paused: NodeJS.Timeout | undefined;
}

export class FolderWatcher {
  private readonly watched = new Map<string, Watched>();

  constructor(
    /** The reaction to a change; a promise, when given, says when it has ended. */
    private readonly changed: (name: string, files: string[]) => unknown,
    private readonly onError: (name: string, message: string) => void = () => undefined,
    private readonly debounceMs = WATCH_DEBOUNCE_MS,
    private readonly storm = { max: MAX_STORM_REPORTS, windowMs: STORM_WINDOW_MS },
  ) {}

  has(name: string): boolean {
    return this.watched.has(name);
  }

  get names(): string[] {
    return [...this.watched.keys()];
  }

  /** Watches exactly these folders: new ones are added, others dropped, unchanged ones kept. */
  set(targets: readonly WatchTarget[]): void {
    const wanted = new Map(targets.map((t) => [t.name, t.dir]));
    for (const [name, w] of this.watched) if (wanted.get(name) !== w.dir) this.remove(name);
    for (const t of targets) if (!this.watched.has(t.name)) this.add(t);
  }

  /** Starts watching one folder; false (and `onError`) when it cannot be watched. */
  add({ name, dir }: WatchTarget): boolean {
    if (this.watched.has(name)) return true;
    const w: Watched = { dir, tree: undefined as unknown as TreeWatch, timer: undefined, files: new Set(), reacting: 0, reactedAt: 0, followsOn: false, streak: 0, paused: undefined };
    w.tree = new TreeWatch(dir, (rel) => this.onChange(name, w, rel), (message) => {
      this.onError(name, message);
      if (!w.tree.folders) this.remove(name);
    });
    try {
      w.tree.start();
    } catch (err) {
      w.tree.close();
      this.onError(name, `cannot watch ${dir}: ${(err as Error).message}`);
      return false;
    }
    this.watched.set(name, w);
    return true;
  }

  remove(name: string): void {
    const w = this.watched.get(name);
    if (!w) return;
    this.watched.delete(name);
    if (w.timer) clearTimeout(w.timer);
    if (w.paused) clearTimeout(w.paused);
    w.tree.close();
  }

  dispose(): void {
    for (const name of [...this.watched.keys()]) this.remove(name);
  }

  private onChange(name: string, w: Watched, rel: string): void {
    if (rel && isIgnoredChange(rel)) return;
    if (this.watched.get(name) !== w) return;
    if (w.paused) {
      // Still busy: the quiet period starts again.
      clearTimeout(w.paused);
      w.paused = this.quietTimer(name, w);
      return;
    }
    if (w.files.size === 0) w.followsOn = w.reacting > 0 || (w.reactedAt > 0 && Date.now() - w.reactedAt < this.storm.windowMs);
    w.files.add(rel || '.');
    // One report per burst of saves: an editor's save is often several events.
    if (w.timer) clearTimeout(w.timer);
    w.timer = setTimeout(() => this.report(name, w), this.debounceMs);
  }

  private report(name: string, w: Watched): void {
    w.timer = undefined;
    const files = [...w.files].sort();
    w.files.clear();
    if (this.watched.get(name) !== w) return;
    const followsOn = w.followsOn;
    w.followsOn = false;
    if (followsOn && w.streak >= this.storm.max) {
      w.streak = 0;
      w.paused = this.quietTimer(name, w);
      const seconds = this.storm.windowMs / 1000;
      this.onError(name, `watch paused: its folder changed ${this.storm.max} times in a row while restarting it or within ${seconds} s after (last: ${files.join(', ')}); it may be writing into its own folder. Watching resumes once the folder has been quiet for ${seconds} s`);
      return;
    }
    w.streak = followsOn ? w.streak + 1 : 1;
    w.reacting++;
    const ended = (): void => {
      w.reacting--;
      w.reactedAt = Date.now();
    };
    let reaction: unknown;
    try {
      reaction = this.changed(name, files);
    } catch (error) {
      ended();
      throw error;
    }
    if (reaction instanceof Promise) reaction.then(ended, ended);
    else ended();
  }

  private quietTimer(name: string, w: Watched): NodeJS.Timeout {
    return setTimeout(() => {
      w.paused = undefined;
      if (this.watched.get(name) === w) this.onError(name, 'watch resumed: the next change restarts it');
    }, this.storm.windowMs);
  }
}

/** Whether a change among `files` (relative to the folder) is to its manifest, which only a new discovery reads. */
export function touchesManifest(files: readonly string[]): boolean {
  return files.some((f) => path.normalize(f) === 'extension.json' || f === '.');
}

/** What a front end does when a watched folder changed, and where it says so. */
export interface WatchReaction {
  /** Whether the host still has an extension of that name. */
  has(name: string): boolean;
  /** Every extension again (a manifest changed: only discovery reads one). */
  reload(): Promise<void>;
  /** That one again; its launch asks the gate like every launch. */
  restart(name: string): Promise<void>;
  say(name: string, line: string): void;
}

/** The one reaction to a change both `zot-host watch` and Watch Extension have: reload for a manifest, else restart. */
export async function reactToChange(name: string, files: readonly string[], r: WatchReaction): Promise<'reloaded' | 'restarted'> {
  const what = files.length === 1 ? files[0]! : `${files.length} files`;
  if (touchesManifest(files) || !r.has(name)) {
    r.say(name, `${what} changed; reloading every extension`);
    await r.reload();
    return 'reloaded';
  }
  r.say(name, `${what} changed; restarting it`);
  await r.restart(name);
  return 'restarted';
}
