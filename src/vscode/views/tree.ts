/**
 * The Zot Extensions view: every extension found, its state, and below it
 * what it registered (commands, tools) and what went wrong. Context values
 * carry what can be done in the current state, so the inline actions
 * (allow, start, stop, restart, log) follow it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableStore, isReady, isServing, isSettling, stateOf, type ExtensionView, type HostReader, type StatusKind } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import { groupOf, groupsOf, type Group } from './groups.js';
import { affordances, code, escapeMarkdown, stateIcon, stateLook } from './presentation.js';
import { t } from '../l10n.js';

export const VIEW_ID = 'zotExtensions';
const REFRESH_DEBOUNCE_MS = 80;
/** Problems listed under an extension; the rest are in the diagnostics report. */
const MAX_PROBLEMS_SHOWN = 10;

export type Node =
  | { kind: 'group'; group: Group }
  | { kind: 'extension'; name: string; dir: string }
  | { kind: 'status'; extension: string; dir: string; text: string; status: StatusKind }
  | { kind: 'command'; extension: string; dir: string; name: string; description: string; active: boolean; shadowedBy?: string }
  | { kind: 'tool'; extension: string; dir: string; name: string; description: string; interactive: boolean; active: boolean; withdrawn: boolean; shadowedBy?: string }
  | { kind: 'problem'; extension: string; dir: string; message: string; index: number }
  | { kind: 'more-problems'; extension: string; dir: string; count: number };

export class ExtensionsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<Node>;
  private timer: NodeJS.Timeout | undefined;
  private readonly subs = new DisposableStore();

  constructor(private readonly manager: HostManager, private readonly canAllow: (name: string) => boolean, gateChanged: vscode.Event<void>) {
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    const refresh = (): void => this.refreshSoon();
    this.subs.add(this.view);
    for (const event of [manager.onDidChangeState, manager.onDidChangeRegistry, manager.onDidChangeBusy, gateChanged, vscode.workspace.onDidGrantWorkspaceTrust, vscode.workspace.onDidChangeWorkspaceFolders]) this.subs.add(event(refresh));
    this.updateChrome();
  }

  private get host(): HostReader {
    return this.manager.view;
  }

  private guarding: () => boolean = () => false;

  /** Marks the extensions that guard the agent's tools while agent hooks are on. */
  showGuards(active: () => boolean, changed: vscode.Event<void>): void {
    this.guarding = active;
    this.subs.add(changed(() => this.refreshSoon()));
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
    const exts = this.host.extensions;
    const extNode = (rt: ExtensionView): Node => ({ kind: 'extension', name: rt.name, dir: rt.dir });
    if (!node) {
      // One folder or none: a flat list. Several: grouped by where each extension comes from.
      const groups = groupsOf(exts, vscode.workspace.workspaceFolders ?? []);
      return groups ? groups.map((group) => ({ kind: 'group', group })) : exts.map(extNode);
    }
    if (node.kind === 'group') return exts.filter((rt) => groupOf(rt).key === node.group.key).map(extNode);
    if (node.kind !== 'extension') return [];
    const rt = this.byDir(node.dir);
    return rt ? this.childrenOf(rt) : [];
  }

  getParent(node: Node): Node | undefined {
    if (node.kind === 'group') return undefined;
    if (node.kind === 'extension') {
      const rt = this.byDir(node.dir);
      const groups = groupsOf(this.host.extensions, vscode.workspace.workspaceFolders ?? []);
      const group = rt && groups?.find((g) => g.key === groupOf(rt).key);
      return group ? { kind: 'group', group } : undefined;
    }
    return { kind: 'extension', name: node.extension, dir: node.dir };
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = new vscode.TreeItem(node.group.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group/${node.group.key}`;
        item.description = node.group.description;
        item.tooltip = node.group.tooltip;
        item.iconPath = new vscode.ThemeIcon(node.group.icon);
        item.contextValue = 'zotGroup';
        return item;
      }
      case 'extension': return this.extensionItem(node.dir);
      case 'status': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = `${this.keyOf(node.extension, node.dir)}/status`;
        item.iconPath = new vscode.ThemeIcon(node.status === 'held' ? 'shield' : node.status === 'disabled' ? 'circle-slash' : node.status === 'restarting' ? 'sync' : 'error',
          new vscode.ThemeColor(node.status === 'failed' ? 'testing.iconFailed' : 'list.warningForeground'));
        item.tooltip = node.text;
        item.contextValue = 'zotStatus';
        return item;
      }
      case 'command': {
        const item = new vscode.TreeItem(`/${node.name}`, vscode.TreeItemCollapsibleState.None);
        item.id = `${this.keyOf(node.extension, node.dir)}/command/${node.name}`;
        item.description = node.active ? node.description : t('inactive: shadowed by {0}', node.shadowedBy ?? '');
        item.tooltip = new vscode.MarkdownString(`**/${escapeMarkdown(node.name)}** — ${t('command of {0}', code(node.extension))}\n\n${escapeMarkdown(node.description || t('(no description)'))}\n\n${node.active ? t('Click to run it (you are asked for its arguments).') : t('Inactive: {0} holds this name.', code(node.shadowedBy ?? ''))}`);
        item.iconPath = new vscode.ThemeIcon('symbol-method', node.active ? undefined : new vscode.ThemeColor('disabledForeground'));
        item.contextValue = node.active ? 'zotCommand' : 'zotCommandInactive';
        if (node.active) item.command = { command: 'zot.runCommand', title: t('Run'), arguments: [node] };
        return item;
      }
      case 'tool': {
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
        item.id = `${this.keyOf(node.extension, node.dir)}/tool/${node.name}`;
        const flags = [node.interactive ? t('interactive') : '', node.active ? '' : t('inactive: shadowed by {0}', node.shadowedBy ?? ''), node.withdrawn ? t('withdrawn by its extension') : ''].filter(Boolean).join(', ');
        item.description = [flags && `(${flags})`, node.description].filter(Boolean).join(' ');
        item.tooltip = new vscode.MarkdownString(`**${escapeMarkdown(node.name)}** — ${t('tool of {0}', code(node.extension))}${node.interactive ? ` ${t('(interactive: waits for you, no reply deadline)')}` : ''}\n\n${escapeMarkdown(node.description || t('(no description)'))}${node.withdrawn ? `\n\n${t('Withdrawn by {0} for now: no tool list offers it and calls to it are refused, until the extension offers it again.', code(node.extension))}` : ''}`);
        // Dimmed like an inactive tool while its extension withdraws it.
        item.iconPath = new vscode.ThemeIcon(node.interactive ? 'comment-discussion' : 'tools', node.active && !node.withdrawn ? undefined : new vscode.ThemeColor('disabledForeground'));
        item.contextValue = node.withdrawn ? 'zotToolWithdrawn' : 'zotTool';
        return item;
      }
      case 'problem': {
        const item = new vscode.TreeItem(node.message.length > 200 ? `${node.message.slice(0, 199)}…` : node.message, vscode.TreeItemCollapsibleState.None);
        item.id = `${this.keyOf(node.extension, node.dir)}/problem/${node.index}`;
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
        item.tooltip = node.message;
        item.contextValue = 'zotProblem';
        return item;
      }
      case 'more-problems': {
        const item = new vscode.TreeItem(node.count === 1 ? t('1 more problem…') : t('{0} more problems…', node.count), vscode.TreeItemCollapsibleState.None);
        item.id = `${this.keyOf(node.extension, node.dir)}/more-problems`;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: 'zot.showDiagnostics', title: t('Show Diagnostics') };
        return item;
      }
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subs.dispose();
    this.changed.dispose();
  }

  private childrenOf(rt: ExtensionView): Node[] {
    const nodes: Node[] = [];
    const owner = { extension: rt.name, dir: rt.dir };
    // Registrations are by name: only the active extension of a name has them.
    const active = this.host.get(rt.name) === rt;
    if (rt.error && !isReady(rt.status)) nodes.push({ kind: 'status', ...owner, text: rt.error, status: rt.status.kind });
    for (const c of active ? this.host.commands() : []) {
      if (c.extension === rt.name) nodes.push({ kind: 'command', ...owner, name: c.name, description: c.description, active: c.active, ...(c.shadowedBy && { shadowedBy: c.shadowedBy }) });
    }
    for (const t of active ? this.host.tools() : []) {
      if (t.extension === rt.name) nodes.push({ kind: 'tool', ...owner, name: t.name, description: t.description, interactive: t.interactive, active: t.active, withdrawn: t.withdrawn, ...(t.shadowedBy && { shadowedBy: t.shadowedBy }) });
    }
    // The status line already says why it failed; do not repeat that problem.
    const problems = rt.problems.filter((p) => p.message !== rt.error);
    const shown = problems.slice(-MAX_PROBLEMS_SHOWN);
    const skipped = problems.length - shown.length + rt.droppedProblems;
    shown.forEach((p, i) => nodes.push({ kind: 'problem', ...owner, message: p.message, index: i }));
    if (skipped > 0) nodes.push({ kind: 'more-problems', ...owner, count: skipped });
    return nodes;
  }

  /** The active extension of a name is known by it; a shadowed namesake by its folder as well. */
  private keyOf(name: string, dir: string): string {
    return this.host.get(name)?.dir === dir ? name : `${name}@${dir}`;
  }

  /** Extensions are told apart by folder: two folders may bring the same name. */
  private byDir(dir: string): ExtensionView | undefined {
    return this.host.extensions.find((rt) => rt.dir === dir);
  }

  private extensionItem(dir: string): vscode.TreeItem {
    const rt = this.byDir(dir);
    if (!rt) return new vscode.TreeItem(path.basename(dir));
    const name = rt.name;
    // Expandable while it is on its way to registering something, so an expanded item stays expanded across a restart.
    const expandable = this.childrenOf(rt).length > 0 || isSettling(rt.status);
    const item = new vscode.TreeItem(name, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    // The active one keeps the plain id (expansion state survives reloads); a shadowed namesake gets its folder in it.
    item.id = `ext/${this.keyOf(name, rt.dir)}`;
    const where = rt.found.source === 'project' ? t('workspace') : rt.found.source === 'explicit' ? t('path') : '';
    const guards = this.guarding() && isServing(rt.status) && rt.intercepts.has('tool_call');
    item.description = [stateLook(stateOf(rt)).label, where, guards && t('guards agent tools')].filter(Boolean).join(' · ');
    item.iconPath = stateIcon(stateOf(rt));
    item.tooltip = extensionTooltip(rt);
    if (guards) item.tooltip.appendMarkdown(`\n$(shield) ${t('Guards every tool call of VS Code\'s agent (agent hooks are on: Zot: Remove Agent Hooks turns them off)')}\n`);
    const can = affordances(rt, this.canAllow(name));
    item.contextValue = `zotExtension;${Object.entries(can).filter(([, v]) => v).map(([k]) => k).join(';')};log;folder;`;
    item.accessibilityInformation = { label: `${name}, ${stateLook(stateOf(rt)).label}${rt.error ? `, ${rt.error}` : ''}` };
    return item;
  }

  /** Badge and message of the view itself. */
  private updateChrome(): void {
    const exts = this.host.extensions;
    const failed = exts.filter((r) => r.status.kind === 'failed').length;
    const waiting = exts.filter((r) => r.status.kind === 'held' && this.canAllow(r.name)).length;
    const attention = failed + waiting;
    this.view.badge = attention
      ? { value: attention, tooltip: [failed && t('{0} failed', failed), waiting && t('{0} waiting for your permission', waiting)].filter(Boolean).join(', ') }
      : undefined;
    const untrustedHeld = exts.some((r) => r.status.kind === 'held' && r.status.reason === 'untrusted');
    const noFolder = (vscode.workspace.workspaceFolders ?? []).length === 0;
    this.view.message = untrustedHeld ? t('Restricted Mode: zot extensions from this workspace are not started.')
      : noFolder ? t('No folder is open: project extensions (.zot/extensions) need an open folder. Global ones run in your home folder.') : undefined;
  }
}

function extensionTooltip(rt: ExtensionView): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  const look = stateLook(stateOf(rt));
  md.appendMarkdown(`$(${look.icon.replace('~spin', '')}) **${escapeMarkdown(rt.name)}**${rt.version ? ` ${escapeMarkdown(rt.version)}` : ''} — ${escapeMarkdown(look.label)}\n\n`);
  if (rt.found.manifest?.description) md.appendMarkdown(`${escapeMarkdown(rt.found.manifest.description)}\n\n`);
  const source = rt.found.source === 'project' ? t('this workspace ({0})', `${rt.found.projectDir ? `${rt.found.projectDir}/` : ''}.zot/extensions`) : rt.found.source === 'explicit' ? t('an explicit path (zot.extensionPaths)') : t('global ($ZOT_HOME/extensions)');
  md.appendMarkdown(`- ${t('Folder: {0}', code(rt.dir))}\n- ${t('From: {0}', escapeMarkdown(source))}\n- ${t('Log: {0}', code(rt.logPath))}\n`);
  if (rt.capabilities.length) md.appendMarkdown(`- ${t('Capabilities: {0}', rt.capabilities.map(code).join(', '))}\n`);
  if (rt.pid !== undefined) md.appendMarkdown(`- ${t('Process: {0}', rt.pid)}\n`);
  if (rt.status.kind === 'running' && rt.status.readiness === 'auto_ready') md.appendMarkdown(`- ${t('Sent no `ready` frame; treated as ready once it went quiet')}\n`);
  if (rt.error) md.appendMarkdown(`\n$(warning) ${escapeMarkdown(rt.error)}\n`);
  return md;
}
