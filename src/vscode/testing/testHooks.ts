/**
 * Commands for end-to-end tests, registered only when the environment sets
 * ZOT_TEST_HOOKS=1 (or in a development test run). They read back what the
 * UI shows (tree items, status bar, log lines, toasts through the trace) and
 * answer questions a test cannot click. Nothing here is contributed to the
 * palette.
 */
import * as vscode from 'vscode';
import type { HostManager } from '../activation/hostManager.js';
import type { LogChannels } from '../ui/logs.js';
import type { ZotMcpProvider } from '../mcp/mcpProvider.js';
import type { PanelPresenter } from '../panels/panels.js';
import type { StatusBar } from '../views/statusBar.js';
import type { TraceEvent, UiTrace } from './trace.js';
import type { ExtensionsTree, Node } from '../views/tree.js';
import type { WorkspaceGate } from '../trust/workspaceGate.js';

const KEEP = 2000;

export interface HookDeps {
  manager: HostManager;
  tree: ExtensionsTree;
  statusBar: StatusBar;
  logs: LogChannels;
  trace: UiTrace;
  panels: PanelPresenter;
  gate: WorkspaceGate;
  mcp: ZotMcpProvider;
  activateMs: () => number;
}

export function testHooksEnabled(context: vscode.ExtensionContext): boolean {
  return process.env.ZOT_TEST_HOOKS === '1' || context.extensionMode === vscode.ExtensionMode.Test;
}

export function registerTestHooks(d: HookDeps): vscode.Disposable[] {
  const events: TraceEvent[] = [];
  const states: { extension: string; state: string; error: string | null; time: number }[] = [];
  const keep = <T>(list: T[], item: T): void => {
    list.push(item);
    if (list.length > KEEP) list.splice(0, list.length - KEEP);
  };
  const r = (id: string, fn: (...args: any[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, fn);
  return [
    d.trace.onDidRecord((e) => keep(events, e)),
    d.manager.onDidChangeState((rt) => keep(states, { extension: rt.name, state: rt.state, error: rt.error ?? null, time: Date.now() })),
    r('zot._test.snapshot', () => snapshot(d)),
    r('zot._test.trace', (opts?: { clear?: boolean }) => {
      const copy = [...events];
      if (opts?.clear) events.length = 0;
      return copy;
    }),
    r('zot._test.states', (name?: string) => states.filter((s) => name === undefined || s.extension === name)),
    r('zot._test.logs', () => d.logs.recent()),
    r('zot._test.panels', () => d.panels.describe()),
    r('zot._test.answerConsent', (name: string, choice: string | undefined) => d.gate.answer(name, choice)),
    r('zot._test.pendingConsent', () => d.gate.pendingQuestions()),
    // What the MCP provider gives VS Code: the definition's label, URI and headers.
    r('zot._test.mcpDefinitions', async () =>
      (await d.mcp.provideMcpServerDefinitions()).map((def) => ({ label: def.label, uri: def.uri.toString(), headers: def.headers, version: def.version }))),
    r('zot._test.reveal', async (name: string, expand = true) => {
      await d.tree.view.reveal({ kind: 'extension', name }, { expand, focus: false, select: false });
      return true;
    }),
  ];
}

function snapshot(d: HookDeps): unknown {
  const host = d.manager.host;
  return {
    activateMs: d.activateMs(),
    loading: d.manager.loading,
    zotHome: host.zotHome,
    timing: { toolTimeoutMs: host.timing.toolTimeoutMs, readyGraceMs: host.timing.readyGraceMs },
    statusBar: d.statusBar.text,
    viewMessage: d.tree.view.message ?? null,
    viewBadge: d.tree.view.badge ? { value: d.tree.view.badge.value, tooltip: d.tree.view.badge.tooltip } : null,
    extensions: host.extensions.map((rt) => ({
      name: rt.name,
      state: rt.state,
      error: rt.error ?? null,
      source: rt.found.source,
      dir: rt.dir,
      pid: rt.pid ?? null,
      version: rt.version ?? null,
      capabilities: [...rt.capabilities],
      problems: rt.problems.map((p) => p.message),
      logPath: rt.logPath,
    })),
    commands: host.commands().map((c) => ({ ...c })),
    tools: host.tools().map((t) => ({ name: t.name, extension: t.extension, interactive: t.interactive, active: t.active })),
    tree: tree(d.tree, undefined, 0),
  };
}

interface ItemSnapshot {
  id: string | undefined;
  label: string;
  description: string | null;
  icon: string | null;
  iconColor: string | null;
  contextValue: string | null;
  tooltip: string | null;
  command: string | null;
  collapsible: number;
  children: ItemSnapshot[];
}

function tree(provider: ExtensionsTree, node: Node | undefined, depth: number): ItemSnapshot[] {
  return provider.getChildren(node).map((child) => {
    const item = provider.getTreeItem(child);
    const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
    const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
    const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value ?? null;
    return {
      id: item.id,
      label,
      description: typeof item.description === 'string' ? item.description : null,
      icon: icon?.id ?? null,
      iconColor: icon?.color?.id ?? null,
      contextValue: item.contextValue ?? null,
      tooltip,
      command: item.command?.command ?? null,
      collapsible: item.collapsibleState ?? 0,
      children: depth < 2 ? tree(provider, child, depth + 1) : [],
    };
  });
}
