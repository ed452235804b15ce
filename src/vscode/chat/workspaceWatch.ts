/**
 * terva's `workspace_changed` for @zot (docs/TERVA.md 18, 22): while one request
 * runs, the session's folder (the first workspace folder, the host's cwd) is
 * watched; after `run_end` the net change goes out once, with
 * `files.watcherExclude`, `.git` and what git ignores left out, paths
 * relative to that folder with `/`, sorted. Nothing is watched unless a
 * running extension subscribes to the event.
 *
 * The event follows `run_end` rather than preceding it: VS Code's watcher
 * reports changes a little after they happen, so the list waits
 * WORKSPACE_SETTLE_MS for the last of them without holding up `run_end` or
 * the end of the chat response. A request that starts meanwhile ends the
 * wait at once, so one run's list never takes in the next run's changes.
 *
 * Other workspace folders are not watched: terva's workspace has one root,
 * and their paths relative to the session's folder would leave it.
 */
import * as vscode from 'vscode';
import { DisposableStore, excludeMatcher, finalChanges, type HostCalls, isServing, NetChanges, type WatchKind } from '../../host/index.js';

/** How long after a run's end its last file events are waited for. */
export const WORKSPACE_SETTLE_MS = 300;

const EVENT = 'workspace_changed';

/** The run whose list is still waiting for late events, if any. */
let settling: WorkspaceWatch | undefined;

/** Whether some running extension subscribes to `workspace_changed`. */
function anySubscriber(host: HostCalls): boolean {
  return host.extensions.some((e) => isServing(e.status) && e.events.has(EVENT));
}

/**
 * Starts watching for one request, or undefined when no running extension
 * subscribes or there is no local workspace folder (then nothing is watched).
 */
export function watchWorkspace(host: HostCalls, log: (line: string) => void): WorkspaceWatch | undefined {
  settling?.flush();
  if (!anySubscriber(host)) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') return undefined;
  try {
    return new WorkspaceWatch(host, folder, log);
  } catch (err) {
    log(`@zot: the workspace is not watched for ${EVENT}: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}

export class WorkspaceWatch {
  private readonly root: string;
  private readonly changes: NetChanges;
  private readonly subs = new DisposableStore();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;

  constructor(private readonly host: HostCalls, folder: vscode.WorkspaceFolder, private readonly log: (line: string) => void) {
    this.root = folder.uri.fsPath;
    const exclude = vscode.workspace.getConfiguration('files', folder.uri).get<unknown>('watcherExclude');
    this.changes = new NetChanges(this.root, { ignored: excludeMatcher(exclude), onOverflow: (message) => log(`@zot: ${message}`) });
    try {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
      const on = (kind: WatchKind) => (uri: vscode.Uri) => { if (uri.scheme === 'file') this.changes.record(kind, uri.fsPath); };
      this.subs.add(watcher);
      for (const sub of [watcher.onDidCreate(on('created')), watcher.onDidChange(on('changed')), watcher.onDidDelete(on('deleted'))]) this.subs.add(sub);
    } catch (err) {
      this.dispose();
      throw err;
    }
  }

  /**
   * The request is over. `ran`: it got past its intercepts (run_end went
   * out), so its list is sent once late events have settled; otherwise the
   * watch just ends.
   */
  end(ran: boolean): void {
    if (!ran) return this.dispose();
    settling?.flush();
    settling = this;
    this.timer = setTimeout(() => this.flush(), WORKSPACE_SETTLE_MS);
  }

  /** Stops watching and sends the run's list, now. */
  flush(): void {
    if (this.done) return;
    if (settling === this) settling = undefined;
    if (this.timer) clearTimeout(this.timer);
    let result;
    try {
      result = this.changes.result();
    } finally {
      this.dispose();
    }
    if ('skipped' in result) return;
    if (result.files.length === 0) return;
    void finalChanges(this.root, result.files).then((files) => {
      if (files.length) this.host.emit(EVENT, { files: files.map((f) => ({ path: f.path, change: f.change })) });
    }, (err) => this.log(`@zot: ${EVENT} not sent: ${(err as Error)?.message ?? String(err)}`));
  }

  private dispose(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.subs.dispose();
  }
}
