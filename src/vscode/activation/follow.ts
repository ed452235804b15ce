/**
 * What activation keeps following once it has returned: the settings, the
 * workspace's trust and folders (a host setting replaces the host, after
 * edits settle), and an open diagnostics report (written again as the
 * extensions change).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { DisposableStore } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import { HOST_SETTINGS, projectDir, projectDirs, readSettings, TIMING_SETTINGS, traceLevel } from '../core/settings.js';
import type { DisplayDocuments } from '../ui/display.js';
import type { ZotMcpProvider } from '../mcp/mcpProvider.js';
import type { WindowParts } from './hostFactory.js';

/** How long settings edits settle before the host is replaced (typing in settings.json). */
const SETTINGS_DEBOUNCE_MS = 300;
/** How often an open diagnostics report follows the host's changes, at most. */
const REPORT_DEBOUNCE_MS = 300;

/** Settings, trust and workspace folders, followed. */
export function followSettings(mgr: HostManager, mcp: ZotMcpProvider, p: WindowParts): vscode.Disposable {
  const { logs } = p;
  let settingsTimer: NodeJS.Timeout | undefined;
  const replaceSoon = (why: string): void => {
    if (settingsTimer) clearTimeout(settingsTimer);
    settingsTimer = setTimeout(() => {
      settingsTimer = undefined;
      logs.hostLog(`${why}: restarting all zot extensions`);
      void mgr.replace();
    }, SETTINGS_DEBOUNCE_MS);
  };
  const store = new DisposableStore();
  store.add({ dispose: () => settingsTimer && clearTimeout(settingsTimer) });
  store.add(vscode.workspace.onDidChangeConfiguration((e) => {
    const changed = HOST_SETTINGS.find((s) => e.affectsConfiguration(s));
    if (changed) replaceSoon(`${changed} changed`);
    else if (e.affectsConfiguration('zot.mcp.servers')) mcp.refresh();
    else if (e.affectsConfiguration('zot.trace')) {
      mgr.setTrace(p.traceSink());
      logs.hostLog(`protocol trace: ${traceLevel()}`);
    } else if (TIMING_SETTINGS.some((s) => e.affectsConfiguration(s))) {
      // Read at each call and each load: the running host takes them as they are.
      mgr.setTiming(readSettings().timing);
      logs.hostLog(`timeouts now: tools ${mgr.view.timing.toolTimeoutMs} ms, ready grace ${mgr.view.timing.readyGraceMs} ms`);
    }
  }));
  store.add(vscode.workspace.onDidGrantWorkspaceTrust(() => replaceSoon('workspace trusted')));
  store.add(vscode.workspace.onDidChangeWorkspaceFolders(() => {
    // A new first folder is a new cwd for every global and explicit extension: those restart.
    if ((projectDir() ?? os.homedir()) !== mgr.view.cwd) return replaceSoon('the first workspace folder changed');
    logs.hostLog(`workspace folders now: ${projectDirs().join(', ') || '(none)'}`);
    mgr.setProjectDirs(projectDirs()).catch((err: unknown) => logs.hostLog(`workspace folders change failed: ${(err as Error).stack ?? String(err)}`, 'error'));
  }));
  return store;
}

/** Regenerates an open diagnostics report when extensions change. */
export function followOpenReport(mgr: HostManager, display: DisplayDocuments, text: () => string): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const update = (): void => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      for (const doc of vscode.workspace.textDocuments) {
        if (doc.uri.scheme === 'zot-display' && doc.uri.path.startsWith('/Zot Diagnostics') && display.has(doc.uri)) display.set(doc.uri, text());
      }
    }, REPORT_DEBOUNCE_MS);
  };
  const store = new DisposableStore();
  store.add({ dispose: () => timer && clearTimeout(timer) });
  store.add(mgr.onDidChangeState(update));
  store.add(mgr.onDidChangeRegistry(update));
  return store;
}
