/**
 * Watches extension folders and reports, debounced, which files of which
 * extension changed, for a front end to restart it (`zot-host watch`, the
 * editor's Watch Extension). Dependencies, VCS data and editors' swap files
 * are not the extension's code: their changes are not reported.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WATCH_DEBOUNCE_MS = 300;

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

interface Watched { dir: string; watcher: fs.FSWatcher; timer: NodeJS.Timeout | undefined; files: Set<string> }

export class FolderWatcher {
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly changed: (name: string, files: string[]) => void,
    private readonly onError: (name: string, message: string) => void = () => undefined,
    private readonly debounceMs = WATCH_DEBOUNCE_MS,
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
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { recursive: true, persistent: true });
    } catch (err) {
      this.onError(name, `cannot watch ${dir}: ${(err as Error).message}`);
      return false;
    }
    const w: Watched = { dir, watcher, timer: undefined, files: new Set() };
    watcher.on('change', (_event, file) => {
      const rel = typeof file === 'string' ? file : file ? file.toString() : '';
      if (rel && isIgnoredChange(rel)) return;
      w.files.add(rel || '.');
      // One report per burst of saves: an editor's save is often several events.
      if (w.timer) clearTimeout(w.timer);
      w.timer = setTimeout(() => {
        w.timer = undefined;
        const files = [...w.files].sort();
        w.files.clear();
        if (this.watched.get(name) === w) this.changed(name, files);
      }, this.debounceMs);
    });
    watcher.on('error', (err) => {
      this.onError(name, `watching ${dir} failed: ${err.message}`);
      this.remove(name);
    });
    this.watched.set(name, w);
    return true;
  }

  remove(name: string): void {
    const w = this.watched.get(name);
    if (!w) return;
    this.watched.delete(name);
    if (w.timer) clearTimeout(w.timer);
    w.watcher.close();
  }

  dispose(): void {
    for (const name of [...this.watched.keys()]) this.remove(name);
  }
}

/** Whether a change among `files` (relative to the folder) is to its manifest, which only a new discovery reads. */
export function touchesManifest(files: readonly string[]): boolean {
  return files.some((f) => path.normalize(f) === 'extension.json' || f === '.');
}
