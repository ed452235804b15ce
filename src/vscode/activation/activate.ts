/**
 * Activation composes the window's parts (hostFactory.ts, agentMode.ts,
 * follow.ts) and returns at once. Extensions start in the background;
 * `deactivate` waits until every one of their processes is gone, so nothing
 * outlives the window.
 */
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { stateOf } from '../../host/index.js';
import { Commands } from '../commands/commands.js';
import { registerNewExtension } from '../authoring/newExtension.js';
import { registerManifestDiagnostics } from '../authoring/manifestDiagnostics.js';
import { ExtensionWatch } from '../authoring/watch.js';
import { registerDebugExtension } from '../authoring/debug.js';
import type { HostManager } from '../core/hostManager.js';
import { chatMaxSteps } from '../core/settings.js';
import { registerChatParticipant } from '../chat/participant.js';
import { registerRunTool } from '../commands/runTool.js';
import type { ZotMcpProvider } from '../mcp/mcpProvider.js';
import type { PanelPresenter } from '../panels/panels.js';
import { StatusBar } from '../views/statusBar.js';
import { SegmentItems } from '../terva/statusItems.js';
import type { VsCodeSecretStore } from '../terva/secretStore.js';
import { registerForgetSecrets } from '../terva/forgetSecrets.js';
import { registerConfigureExtension } from '../terva/extensionSettings.js';
import type { LogChannels } from '../ui/logs.js';
import type { UiTrace } from '../ui/trace.js';
import { ExtensionsTree } from '../views/tree.js';
import type { ConsentQuestion } from '../trust/workspaceGate.js';
import { useTranslator } from '../l10n.js';
import { hostManager, windowParts, type WindowParts } from './hostFactory.js';
import { wireAgentMode } from './agentMode.js';
import { followOpenReport, followSettings } from './follow.js';

/** The window's host manager, for `deactivate`. */
let manager: HostManager | undefined;

/** The parts activation wires together, handed to a test bundle's instruments. */
export interface Wired {
  manager: HostManager;
  tree: ExtensionsTree;
  statusBar: StatusBar;
  /** terva's status segments, one item per extension. */
  segmentItems: SegmentItems;
  secretStore: VsCodeSecretStore;
  logs: LogChannels;
  trace: UiTrace;
  panels: PanelPresenter;
  mcp: ZotMcpProvider;
  activateMs: number;
  /** When activate() began, in ms since the epoch (to time what follows it). */
  activatedAt: number;
}

/**
 * What a test bundle may add (src/vscode/testing); the product's entry point
 * passes none, so none of it is in the shipped bundle.
 */
export interface Instruments {
  /** Asks the consent question in place of the plain notification. */
  consentQuestion?: ConsentQuestion;
  /** Called once everything is wired, before any extension starts. */
  wired?: (parts: Wired) => void;
}

export function activateWith(context: vscode.ExtensionContext, instruments: Instruments = {}): void {
  const started = performance.now();
  useTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  const p = windowParts(context, () => mgr, instruments.consentQuestion);
  const mgr = hostManager(p);
  manager = mgr;
  const { trace, logs, display } = p;
  const commands = new Commands({ context, manager: mgr, gate: p.gate, logs, display, trace });
  const tree = new ExtensionsTree(mgr, (name) => p.gate.canAllow(name), p.gate.onDidChange);
  const statusBar = new StatusBar(mgr);
  const segmentItems = new SegmentItems(mgr);
  // State changes go to each extension's channel; the host channel gets the big events.
  const stateLog = mgr.onDidChangeState((rt) => logs.extensionLog(rt.name, `state: ${stateOf(rt)}${rt.error ? ` (${rt.error})` : ''}`, rt.status.kind === 'failed' ? 'error' : 'info'));
  const hostLog = mgr.onLog((e) => logs.onHostLog(e));
  registerChatParticipant(context, { host: () => mgr.host, reload: () => mgr.reload(), maxSteps: chatMaxSteps, log: (line) => logs.hostLog(line), replies: trace, sessions: p.chatSessions });
  const mcp = wireAgentMode(context, mgr, p, tree);
  context.subscriptions.push(
    registerRunTool(mgr, display, trace),
    trace, logs, display, p.panels, p.notes, p.gate, tree, statusBar, segmentItems, stateLog, hostLog,
    followOpenReport(mgr, display, () => commands.diagnosticsText()),
    ...commands.register(),
    registerForgetSecrets(p.secretStore, trace),
    p.extensionSettings,
    registerConfigureExtension(mgr, p.extensionSettings),
    registerNewExtension(mgr),
    registerManifestDiagnostics(),
    new ExtensionWatch({ manager: mgr, logs }),
    registerDebugExtension({ manager: mgr, logs, extensionPath: context.extensionPath }),
    followSettings(mgr, mcp, p),
  );
  const activateMs = performance.now() - started;
  instruments.wired?.({ manager: mgr, tree, statusBar, segmentItems, secretStore: p.secretStore, logs, trace, panels: p.panels, mcp, activateMs, activatedAt: performance.timeOrigin + started });
  startInBackground(mgr, p);
  logs.hostLog(`activated in ${activateMs.toFixed(1)} ms`);
  recordActivationTime(performance.now() - started);
}

/** In the background: activation never waits for an extension. The settings' secrets are read first: a hello_ack carries the settings at once. */
function startInBackground(mgr: HostManager, p: WindowParts): void {
  const loadStart = performance.now();
  void p.extensionSettings.loadAll().catch((err: unknown) => p.logs.hostLog(`the extension settings' secrets could not be read: ${(err as Error).message}`, 'warn')).then(() => mgr.start()).then(
    () => {
      const exts = mgr.view.extensions;
      p.logs.hostLog(`loaded ${exts.length} extension${exts.length === 1 ? '' : 's'} in ${Math.round(performance.now() - loadStart)} ms: ${exts.map((r) => `${r.name} (${stateOf(r)})`).join(', ') || 'none'}`);
    },
    (err: unknown) => p.logs.hostLog(`loading failed: ${(err as Error).stack ?? String(err)}`, 'error'),
  );
}

export async function deactivate(): Promise<void> {
  const m = manager;
  manager = undefined;
  await m?.dispose();
}

/** For measurements: `{ "activate_ms": n }` into the file named by ZOT_ACTIVATE_MS_FILE. */
function recordActivationTime(ms: number): void {
  const file = process.env.ZOT_ACTIVATE_MS_FILE;
  if (!file) return;
  try {
    fs.writeFileSync(file, JSON.stringify({ activate_ms: Math.round(ms * 100) / 100 }) + '\n');
  } catch {
    // A measurement aid; never a reason to fail activation.
  }
}
