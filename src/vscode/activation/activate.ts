/**
 * Activation: wire the host to VS Code and return at once. Extensions start
 * in the background; `deactivate` waits until every one of their processes
 * is gone, so nothing outlives the window.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { stateOf, ZotHost, type TraceSink } from '../../host/index.js';
import { Commands } from '../commands/commands.js';
import { registerNewExtension } from '../authoring/newExtension.js';
import { registerManifestDiagnostics } from '../authoring/manifestDiagnostics.js';
import { ExtensionWatch } from '../authoring/watch.js';
import { registerDebugExtension } from '../authoring/debug.js';
import { DisplayDocuments } from '../ui/display.js';
import { HostManager } from './hostManager.js';
import { LogChannels } from '../ui/logs.js';
import { Notes } from '../ui/notes.js';
import { registerChatParticipant } from '../chat/participant.js';
import { ChatSessions } from '../chat/sessions.js';
import { vscodeHostTools } from '../chat/hostTools.js';
import { registerRunTool } from '../commands/runTool.js';
import { MCP_PROVIDER_ID, ZotMcpProvider } from '../mcp/mcpProvider.js';
import { AgentHooks } from '../hooks/agentHooks.js';
import { QuickPickPanels, type PanelPresenter } from '../panels/panels.js';
import { chatMaxSteps, HOST_SETTINGS, mcpServers, panelStyle, projectDir, projectDirs, readSettings, TIMING_SETTINGS, traceLevel } from './settings.js';
import { StatusBar } from '../views/statusBar.js';
import { SegmentItems } from '../family/statusItems.js';
import { VsCodeSecretStore } from '../family/secretStore.js';
import { registerForgetSecrets } from '../family/forgetSecrets.js';
import { ExtensionSettings, registerConfigureExtension } from '../family/extensionSettings.js';
import { UiTrace } from '../ui/trace.js';
import { ExtensionsTree } from '../views/tree.js';
import { VsCodeUI } from '../ui/ui.js';
import { PanelRouter, WebviewPanels } from '../panels/webviewPanels.js';
import { WorkspaceGate, type ConsentQuestion } from '../trust/workspaceGate.js';
import { useTranslator } from '../l10n.js';

/** How long settings edits settle before the host is replaced (typing in settings.json). */
const SETTINGS_DEBOUNCE_MS = 300;
/** How often an open diagnostics report follows the host's changes, at most. */
const REPORT_DEBOUNCE_MS = 300;

let manager: HostManager | undefined;

/** The running host manager, for other parts of the VS Code layer (chat, tools, MCP). */
export function currentHostManager(): HostManager | undefined {
  return manager;
}

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
  const trace = new UiTrace();
  const logs = new LogChannels();
  const display = new DisplayDocuments();
  // The manager is read lazily: the gate exists before the first host does.
  const gate = new WorkspaceGate(context.workspaceState, () => mgr, logs, trace, instruments.consentQuestion);
  const panels = new PanelRouter(new QuickPickPanels(trace), new WebviewPanels(context.extensionUri, trace), panelStyle);
  const notes = new Notes(logs, trace, (name) => logs.show(name));
  const ui = new VsCodeUI({ notes, display, panels, trace });
  // terva's secrets live in this profile's SecretStorage, under `ext:<manifest name>:<key>`.
  const secretStore = new VsCodeSecretStore(context.secrets);
  // terva's extension settings: zot.extensionSettings, and SecretStorage for secret ones; a change reaches the host.
  const extensionSettings = new ExtensionSettings(context.secrets, (names) => mgr.host.settingsChanged(names));
  // @zot's conversations, kept per workspace: what terva's list_sessions and read_session answer.
  const chatSessions = new ChatSessions(context.workspaceState, projectDir);
  // terva's host_tool_call: the window's language model tools, asked for in a modal question, never zot's own.
  const hostTools = vscodeHostTools({ zotToolNames: () => mgr.host.tools().map((tool) => tool.name), log: (line) => logs.hostLog(line) });

  // Values nothing the host writes may show (the MCP server's bearer token, once it runs), for every host of this window.
  const secrets = new Set<string>();
  // The protocol trace goes to each extension's own channel.
  const traceSink = (): TraceSink | undefined => {
    const level = traceLevel();
    if (level === 'off') return undefined;
    return { level, line: (name, text) => logs.extensionLog(name, `[trace] ${text}`), secrets: () => [...secrets] };
  };

  const mgr: HostManager = new HostManager(() => {
    const settings = readSettings();
    const trace = traceSink();
    gate.useSettings(settings);
    logs.hostLog(`host for ${projectDirs().join(', ') || '(no folder)'}; zot home ${settings.zotHome ?? '(default)'}; workspace ${vscode.workspace.isTrusted ? 'trusted' : 'not trusted'}${settings.extensionPaths.length ? `; explicit paths: ${settings.extensionPaths.join(', ')}` : ''}`);
    const host = new ZotHost({
      // Without a folder there is no project; the home folder is what a terminal would start in (zot takes its cwd).
      cwd: projectDir() ?? os.homedir(),
      projectDirs: projectDirs(),
      ...(settings.zotHome !== undefined && { zotHome: settings.zotHome, env: { ...process.env, ZOT_HOME: settings.zotHome } }),
      extensionPaths: settings.extensionPaths,
      timing: settings.timing,
      ui,
      gate: gate.gate,
      services: { secrets: secretStore, sessions: chatSessions, hostTools },
      settings: extensionSettings,
      ...(trace && { trace }),
    });
    for (const value of secrets) host.keepSecret(value);
    return host;
  });
  manager = mgr;

  const commands = new Commands({ context, manager: mgr, gate, logs, display, trace });

  const tree = new ExtensionsTree(mgr, (name) => gate.canAllow(name), gate.onDidChange);
  const statusBar = new StatusBar(mgr);
  const segmentItems = new SegmentItems(mgr);

  // State changes go to each extension's channel; the host channel gets the big events.
  const stateLog = mgr.onDidChangeState((rt) => logs.extensionLog(rt.name, `state: ${stateOf(rt)}${rt.error ? ` (${rt.error})` : ''}`, rt.status.kind === 'failed' ? 'error' : 'info'));
  const hostLog = mgr.onLog((e) => logs.onHostLog(e));

  const reportUpdates = followOpenReport(mgr, display, () => commands.diagnosticsText());

  registerChatParticipant(context, { host: () => mgr.host, reload: () => mgr.reload(), maxSteps: chatMaxSteps, log: (line) => logs.hostLog(line), replies: trace, sessions: chatSessions });
  // Agent mode reaches zot tools through an MCP server that runs here, started on first use.
  const mcp = new ZotMcpProvider({
    extensionPath: context.extensionPath,
    source: mgr,
    version: () => String(context.extension.packageJSON.version),
    servers: mcpServers,
    log: (line) => logs.hostLog(line),
    keepSecret: (token) => {
      secrets.add(token);
      mgr.keepSecret(token);
    },
  });
  context.subscriptions.push(mcp, vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp), registerRunTool(mgr, display, trace));
  // zot guards in front of every tool of the agent, through its hooks (answered by this window while installed).
  const hooks = new AgentHooks({ context, manager: mgr, mcp, log: (line) => logs.hostLog(line), trace });
  tree.showGuards(() => hooks.active, hooks.onDidChange);
  context.subscriptions.push(hooks,
    vscode.commands.registerCommand('zot.installAgentHooks', (scope?: unknown) => hooks.install(scope)),
    vscode.commands.registerCommand('zot.removeAgentHooks', () => hooks.remove()),
    vscode.commands.registerCommand('zot.createAgentPlugin', (where?: unknown, format?: unknown) => hooks.createPlugin(where, format)));
  void hooks.start().catch((err: unknown) => logs.hostLog(`agent hooks: ${(err as Error).message}`, 'error'));

  let settingsTimer: NodeJS.Timeout | undefined;
  const replaceSoon = (why: string): void => {
    if (settingsTimer) clearTimeout(settingsTimer);
    settingsTimer = setTimeout(() => {
      settingsTimer = undefined;
      logs.hostLog(`${why}: restarting all zot extensions`);
      void mgr.replace();
    }, SETTINGS_DEBOUNCE_MS);
  };

  context.subscriptions.push(
    trace, logs, display, panels, notes, gate, tree, statusBar, segmentItems, stateLog, hostLog, reportUpdates,
    ...commands.register(),
    registerForgetSecrets(secretStore, trace),
    extensionSettings,
    registerConfigureExtension(mgr, extensionSettings),
    registerNewExtension(mgr),
    registerManifestDiagnostics(),
    new ExtensionWatch({ manager: mgr, logs }),
    registerDebugExtension({ manager: mgr, logs, extensionPath: context.extensionPath }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      const changed = HOST_SETTINGS.find((s) => e.affectsConfiguration(s));
      if (changed) replaceSoon(`${changed} changed`);
      else if (e.affectsConfiguration('zot.mcp.servers')) mcp.refresh();
      else if (e.affectsConfiguration('zot.trace')) {
        mgr.setTrace(traceSink());
        logs.hostLog(`protocol trace: ${traceLevel()}`);
      }
      else if (TIMING_SETTINGS.some((s) => e.affectsConfiguration(s))) {
        // Read at each call and each load: the running host takes them as they are.
        mgr.setTiming(readSettings().timing);
        logs.hostLog(`timeouts now: tools ${mgr.view.timing.toolTimeoutMs} ms, ready grace ${mgr.view.timing.readyGraceMs} ms`);
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => replaceSoon('workspace trusted')),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      // A new first folder is a new cwd for every global and explicit extension: those restart.
      if ((projectDir() ?? os.homedir()) !== mgr.view.cwd) return replaceSoon('the first workspace folder changed');
      logs.hostLog(`workspace folders now: ${projectDirs().join(', ') || '(none)'}`);
      mgr.setProjectDirs(projectDirs()).catch((err: unknown) => logs.hostLog(`workspace folders change failed: ${(err as Error).stack ?? String(err)}`, 'error'));
    }),
    { dispose: () => settingsTimer && clearTimeout(settingsTimer) },
  );

  const activateMs = performance.now() - started;
  instruments.wired?.({ manager: mgr, tree, statusBar, segmentItems, secretStore, logs, trace, panels, mcp, activateMs, activatedAt: performance.timeOrigin + started });

  // In the background: activation never waits for an extension.
  const loadStart = performance.now();
  // The settings' secrets are read first: a hello_ack carries the settings at once.
  void extensionSettings.loadAll().catch((err: unknown) => logs.hostLog(`the extension settings' secrets could not be read: ${(err as Error).message}`, 'warn')).then(() => mgr.start()).then(
    () => {
      const exts = mgr.view.extensions;
      logs.hostLog(`loaded ${exts.length} extension${exts.length === 1 ? '' : 's'} in ${Math.round(performance.now() - loadStart)} ms: ${exts.map((r) => `${r.name} (${stateOf(r)})`).join(', ') || 'none'}`);
    },
    (err: unknown) => logs.hostLog(`loading failed: ${(err as Error).stack ?? String(err)}`, 'error'),
  );

  logs.hostLog(`activated in ${activateMs.toFixed(1)} ms`);
  recordActivationTime(performance.now() - started);
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

/** Regenerates an open diagnostics report when extensions change. */
function followOpenReport(mgr: HostManager, display: DisplayDocuments, text: () => string): vscode.Disposable {
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
  const subs = [mgr.onDidChangeState(update), mgr.onDidChangeRegistry(update)];
  return { dispose: () => { if (timer) clearTimeout(timer); subs.forEach((s) => s.dispose()); } };
}
