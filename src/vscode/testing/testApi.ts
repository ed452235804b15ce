/**
 * The test API: what the end-to-end suites read back from the UI (tree items,
 * status bar, log lines, panels, toasts through the trace) and the questions
 * they answer that a test cannot click. Returned as the extension's exports by
 * the test bundle only (./extension.ts).
 */
import * as vscode from 'vscode';
import { isOffered, stateOf } from '../../host/index.js';
import type { Wired } from '../activation/activate.js';
import type { PanelSnapshot } from '../panels/panels.js';
import type { SegmentItemView } from '../terva/statusItems.js';
import type { TraceEvent } from '../ui/trace.js';
import type { ExtensionsTree, Node } from '../views/tree.js';
import type { ConsentQuestions } from './consentQuestions.js';

/** Events and state changes kept, newest last. */
const KEEP = 2000;

export interface StateChange {
  extension: string;
  state: string;
  error: string | null;
  time: number;
}

export interface McpDefinitionView {
  label: string;
  uri: string;
  headers: Record<string, string>;
  version: string | undefined;
}

export interface TestApi {
  snapshot(): Snapshot;
  /** Trace events since the last clear. */
  trace(opts?: { clear?: boolean }): TraceEvent[];
  states(name?: string): StateChange[];
  logs(): Record<string, string[]>;
  panels(): PanelSnapshot[];
  pendingConsent(): string[];
  answerConsent(name: string, choice: string | undefined): boolean;
  /** What the MCP provider gives VS Code: the definition's label, URI and headers. */
  mcpDefinitions(): Promise<McpDefinitionView[]>;
  /** Resolves the definition labelled `label` as VS Code does when it starts that server. */
  resolveMcpDefinition(label: string): Promise<McpDefinitionView | undefined>;
  /** The status bar items of terva's status segments: text, name, tooltip, click. */
  segmentItems(): SegmentItemView[];
  /** Whether an extension has a secret under `key`; never the value (that goes only to the extension). */
  hasSecret(extension: string, key: string): Promise<boolean>;
  /** The names of an extension's secrets, sorted. */
  secretKeys(extension: string): Promise<string[]>;
}

export type Snapshot = ReturnType<typeof snapshot>;

export function createTestApi(d: Wired, consent: ConsentQuestions): { api: TestApi; disposables: vscode.Disposable[] } {
  const events: TraceEvent[] = [];
  const states: StateChange[] = [];
  const keep = <T>(list: T[], item: T): void => {
    list.push(item);
    if (list.length > KEEP) list.splice(0, list.length - KEEP);
  };
  const disposables = [
    d.trace.onDidRecord((e) => keep(events, e)),
    d.manager.onDidChangeState((rt) => keep(states, { extension: rt.name, state: stateOf(rt), error: rt.error ?? null, time: Date.now() })),
  ];
  const api: TestApi = {
    snapshot: () => snapshot(d),
    trace: (opts) => {
      const copy = [...events];
      if (opts?.clear) events.length = 0;
      return copy;
    },
    states: (name) => states.filter((s) => name === undefined || s.extension === name),
    logs: () => d.logs.recent(),
    panels: () => d.panels.describe(),
    pendingConsent: () => consent.pending(),
    answerConsent: (name, choice) => consent.answer(name, choice),
    // Read without telling the provider anything: what VS Code was told, and its launches, stay VS Code's own.
    mcpDefinitions: async () => (await d.mcp.peekDefinitions()).map(defView),
    resolveMcpDefinition: async (label) => {
      const def = (await d.mcp.peekDefinitions()).find((x) => x.label === label);
      return def && defView(await d.mcp.peekResolve(def));
    },
    segmentItems: () => d.segmentItems.describe(),
    hasSecret: async (extension, key) => (await d.secretStore.get(extension, key)) !== undefined,
    secretKeys: (extension) => d.secretStore.keys(extension),
  };
  return { api, disposables };
}

function defView(def: vscode.McpHttpServerDefinition): McpDefinitionView {
  return { label: def.label, uri: def.uri.toString(), headers: def.headers, version: def.version };
}

function snapshot(d: Wired) {
  const host = d.manager.host;
  return {
    activateMs: d.activateMs,
    activatedAt: d.activatedAt,
    loading: d.manager.loading,
    zotHome: host.zotHome,
    cwd: host.cwd,
    projectDirs: [...host.projectDirs],
    timing: { toolTimeoutMs: host.timing.toolTimeoutMs, readyGraceMs: host.timing.readyGraceMs },
    statusBar: d.statusBar.text,
    statusBarCommand: d.statusBar.command ?? null,
    viewVisible: d.tree.view.visible,
    viewMessage: d.tree.view.message ?? null,
    viewBadge: d.tree.view.badge ? { value: d.tree.view.badge.value, tooltip: d.tree.view.badge.tooltip } : null,
    extensions: host.extensions.map((rt) => ({
      name: rt.name,
      state: stateOf(rt),
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
    tools: host.tools().map((t) => ({ name: t.name, extension: t.extension, interactive: t.interactive, active: t.active, withdrawn: t.withdrawn, offered: isOffered(t) })),
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
      children: depth < 3 ? tree(provider, child, depth + 1) : [],
    };
  });
}
