/**
 * The Zot Extensions view: every extension found, its state, and below it
 * what it registered (commands, tools) and what went wrong. Context values
 * carry what can be done in the current state, so the inline actions
 * (allow, start, stop, restart, log) follow it.
 */
import * as vscode from 'vscode';
import type { ExtensionView, ZotHost } from '../../host/index.js';
import type { HostManager } from '../activation/hostManager.js';
import { affordances, code, escapeMarkdown, isRunning, stateIcon, stateLook } from './presentation.js';

export const VIEW_ID = 'zotExtensions';
const REFRESH_DEBOUNCE_MS = 80;
/** Problems listed under an extension; the rest are in the diagnostics report. */
const MAX_PROBLEMS_SHOWN = 10;

export type Node =
  | { kind: 'extension'; name: string }
  | { kind: 'status'; extension: string; text: string; state: string }
  | { kind: 'command'; extension: string; name: string; description: string; active: boolean; shadowedBy?: string }
  | { kind: 'tool'; extension: string; name: string; description: string; interactive: boolean; active: boolean; shadowedBy?: string }
  | { kind: 'problem'; extension: string; message: string; index: number }
  | { kind: 'more-problems'; extension: string; count: number };

export class ExtensionsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<Node>;
  private timer: NodeJS.Timeout | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly manager: HostManager, private readonly canAllow: (name: string) => boolean, gateChanged: vscode.Event<void>) {
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.subs.push(
      this.view,
      manager.onDidChangeState(() => this.refreshSoon()),
      manager.onDidChangeRegistry(() => this.refreshSoon()),
      manager.onDidChangeBusy(() => this.refreshSoon()),
      gateChanged(() => this.refreshSoon()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refreshSoon()),
    );
    this.updateChrome();
  }

  private get host(): ZotHost {
    return this.manager.host;
  }

  /** Coalesces bursts of host events into one refresh. */
  refreshSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed.fire(undefined);
      this.updateChrome();
    }, REFRESH_DEBOUNCE_MS);
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.host.extensions.map((rt) => ({ kind: 'extension', name: rt.name }));
    if (node.kind !== 'extension') return [];
    const rt = this.host.get(node.name);
    return rt ? this.childrenOf(rt) : [];
  }

  getParent(node: Node): Node | undefined {
    return node.kind === 'extension' ? undefined : { kind: 'extension', name: node.extension };
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'extension': return this.extensionItem(node.name);
      case 'status': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.extension}/status`;
        item.iconPath = new vscode.ThemeIcon(node.state === 'held' ? 'shield' : node.state === 'disabled' ? 'circle-slash' : node.state === 'restarting' ? 'sync' : 'error',
          new vscode.ThemeColor(node.state === 'failed' ? 'testing.iconFailed' : 'list.warningForeground'));
        item.tooltip = node.text;
        item.contextValue = 'zotStatus';
        return item;
      }
      case 'command': {
        const item = new vscode.TreeItem(`/${node.name}`, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.extension}/command/${node.name}`;
        item.description = node.active ? node.description : `inactive: shadowed by ${node.shadowedBy}`;
        item.tooltip = new vscode.MarkdownString(`**/${escapeMarkdown(node.name)}** — command of ${code(node.extension)}\n\n${escapeMarkdown(node.description || '(no description)')}${node.active ? '\n\nClick to run it (you are asked for its arguments).' : `\n\nInactive: ${code(node.shadowedBy ?? '')} holds this name.`}`);
        item.iconPath = new vscode.ThemeIcon('symbol-method', node.active ? undefined : new vscode.ThemeColor('disabledForeground'));
        item.contextValue = node.active ? 'zotCommand' : 'zotCommandInactive';
        if (node.active) item.command = { command: 'zot.runCommand', title: 'Run', arguments: [node] };
        return item;
      }
      case 'tool': {
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.extension}/tool/${node.name}`;
        const flags = [node.interactive ? 'interactive' : '', node.active ? '' : `inactive: shadowed by ${node.shadowedBy}`].filter(Boolean).join(', ');
        item.description = [flags && `(${flags})`, node.description].filter(Boolean).join(' ');
        item.tooltip = new vscode.MarkdownString(`**${escapeMarkdown(node.name)}** — tool of ${code(node.extension)}${node.interactive ? ' (interactive: waits for you, no reply deadline)' : ''}\n\n${escapeMarkdown(node.description || '(no description)')}`);
        item.iconPath = new vscode.ThemeIcon(node.interactive ? 'comment-discussion' : 'tools', node.active ? undefined : new vscode.ThemeColor('disabledForeground'));
        item.contextValue = 'zotTool';
        return item;
      }
      case 'problem': {
        const item = new vscode.TreeItem(node.message.length > 200 ? `${node.message.slice(0, 199)}…` : node.message, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.extension}/problem/${node.index}`;
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
        item.tooltip = node.message;
        item.contextValue = 'zotProblem';
        return item;
      }
      case 'more-problems': {
        const item = new vscode.TreeItem(`${node.count} more problem${node.count === 1 ? '' : 's'}…`, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.extension}/more-problems`;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: 'zot.showDiagnostics', title: 'Show Diagnostics' };
        return item;
      }
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }

  private childrenOf(rt: ExtensionView): Node[] {
    const nodes: Node[] = [];
    if (rt.error && !isRunning(rt)) nodes.push({ kind: 'status', extension: rt.name, text: rt.error, state: rt.state });
    for (const c of this.host.commands()) {
      if (c.extension === rt.name) nodes.push({ kind: 'command', extension: rt.name, name: c.name, description: c.description, active: c.active, ...(c.shadowedBy && { shadowedBy: c.shadowedBy }) });
    }
    for (const t of this.host.tools()) {
      if (t.extension === rt.name) nodes.push({ kind: 'tool', extension: rt.name, name: t.name, description: t.description, interactive: t.interactive, active: t.active, ...(t.shadowedBy && { shadowedBy: t.shadowedBy }) });
    }
    // The status line already says why it failed; do not repeat that problem.
    const problems = rt.problems.filter((p) => p.message !== rt.error);
    const shown = problems.slice(-MAX_PROBLEMS_SHOWN);
    const skipped = problems.length - shown.length + rt.droppedProblems;
    shown.forEach((p, i) => nodes.push({ kind: 'problem', extension: rt.name, message: p.message, index: i }));
    if (skipped > 0) nodes.push({ kind: 'more-problems', extension: rt.name, count: skipped });
    return nodes;
  }

  private extensionItem(name: string): vscode.TreeItem {
    const rt = this.host.get(name);
    if (!rt) return new vscode.TreeItem(name);
    // Expandable while it is on its way to registering something, so an expanded item stays expanded across a restart.
    const expandable = this.childrenOf(rt).length > 0 || rt.state === 'starting' || rt.status.kind === 'restarting';
    const item = new vscode.TreeItem(name, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `ext/${name}`;
    const where = rt.found.source === 'project' ? 'workspace' : rt.found.source === 'explicit' ? 'path' : '';
    item.description = [stateLook(rt.state).label, where].filter(Boolean).join(' · ');
    item.iconPath = stateIcon(rt.state);
    item.tooltip = extensionTooltip(rt);
    const can = affordances(rt, this.canAllow(name));
    item.contextValue = `zotExtension;${Object.entries(can).filter(([, v]) => v).map(([k]) => k).join(';')};log;folder;`;
    item.accessibilityInformation = { label: `${name}, ${stateLook(rt.state).label}${rt.error ? `, ${rt.error}` : ''}` };
    return item;
  }

  /** Badge and message of the view itself. */
  private updateChrome(): void {
    const exts = this.host.extensions;
    const failed = exts.filter((r) => r.status.kind === 'failed').length;
    const waiting = exts.filter((r) => r.status.kind === 'held' && this.canAllow(r.name)).length;
    const attention = failed + waiting;
    this.view.badge = attention
      ? { value: attention, tooltip: [failed && `${failed} failed`, waiting && `${waiting} waiting for your permission`].filter(Boolean).join(', ') }
      : undefined;
    const untrustedHeld = exts.some((r) => r.status.kind === 'held' && r.status.reason === 'untrusted');
    this.view.message = untrustedHeld ? 'Restricted Mode: zot extensions from this workspace are not started.' : undefined;
  }
}

export function extensionTooltip(rt: ExtensionView): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  const look = stateLook(rt.state);
  md.appendMarkdown(`$(${look.icon.replace('~spin', '')}) **${escapeMarkdown(rt.name)}**${rt.version ? ` ${escapeMarkdown(rt.version)}` : ''} — ${escapeMarkdown(look.label)}\n\n`);
  if (rt.found.manifest?.description) md.appendMarkdown(`${escapeMarkdown(rt.found.manifest.description)}\n\n`);
  const source = rt.found.source === 'project' ? 'this workspace (.zot/extensions)' : rt.found.source === 'explicit' ? 'an explicit path (zot.extensionPaths)' : 'global ($ZOT_HOME/extensions)';
  md.appendMarkdown(`- Folder: ${code(rt.dir)}\n- From: ${escapeMarkdown(source)}\n- Log: ${code(rt.logPath)}\n`);
  if (rt.capabilities.length) md.appendMarkdown(`- Capabilities: ${rt.capabilities.map(code).join(', ')}\n`);
  if (rt.pid !== undefined) md.appendMarkdown(`- Process: ${rt.pid}\n`);
  if (rt.status.kind === 'running' && rt.status.readiness === 'auto_ready') md.appendMarkdown('- Sent no `ready` frame; treated as ready once it went quiet\n');
  if (rt.error) md.appendMarkdown(`\n$(warning) ${escapeMarkdown(rt.error)}\n`);
  return md;
}
