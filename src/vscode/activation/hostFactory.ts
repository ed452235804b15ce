/**
 * The parts every host of this window shares (the UI, the workspace gate,
 * terva's services), and the factory that makes a host from the settings as
 * they are: the HostManager calls it at the start and at each replacement.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { ZotHost, type TraceSink } from '../../host/index.js';
import { HostManager } from '../core/hostManager.js';
import { panelStyle, projectDir, projectDirs, readSettings, traceLevel } from '../core/settings.js';
import { DisplayDocuments } from '../ui/display.js';
import { LogChannels } from '../ui/logs.js';
import { Notes } from '../ui/notes.js';
import { UiTrace } from '../ui/trace.js';
import { VsCodeUI } from '../ui/ui.js';
import { QuickPickPanels } from '../panels/panels.js';
import { PanelRouter, WebviewPanels } from '../panels/webviewPanels.js';
import { ChatSessions } from '../chat/sessions.js';
import { vscodeHostTools } from '../hostTools/hostTools.js';
import { VsCodeSecretStore } from '../terva/secretStore.js';
import { ExtensionSettings } from '../terva/extensionSettings.js';
import { WorkspaceGate, type ConsentQuestion } from '../trust/workspaceGate.js';

/** What the window's hosts are made with; each is disposed with the window. */
export interface WindowParts {
  trace: UiTrace;
  logs: LogChannels;
  display: DisplayDocuments;
  gate: WorkspaceGate;
  panels: PanelRouter;
  notes: Notes;
  ui: VsCodeUI;
  secretStore: VsCodeSecretStore;
  extensionSettings: ExtensionSettings;
  chatSessions: ChatSessions;
  /** Values nothing the host writes may show (the MCP server's bearer token, once it runs), for every host of this window. */
  secrets: Set<string>;
  /** The protocol trace's sink as the settings say (each extension's own channel), or none. */
  traceSink(): TraceSink | undefined;
}

/** The window's parts and the manager of its hosts. `manager` is read lazily: the gate exists before the first host does. */
export function windowParts(context: vscode.ExtensionContext, manager: () => HostManager, consentQuestion?: ConsentQuestion): WindowParts {
  const trace = new UiTrace();
  const logs = new LogChannels();
  const display = new DisplayDocuments();
  const gate = new WorkspaceGate(context.workspaceState, manager, logs, trace, consentQuestion);
  const panels = new PanelRouter(new QuickPickPanels(trace), new WebviewPanels(context.extensionUri, trace), panelStyle);
  const notes = new Notes(logs, trace, (name) => logs.show(name));
  const ui = new VsCodeUI({ notes, display, panels, trace });
  const secrets = new Set<string>();
  return {
    trace, logs, display, gate, panels, notes, ui, secrets,
    // terva's secrets live in this profile's SecretStorage, under `ext:<manifest name>:<key>`.
    secretStore: new VsCodeSecretStore(context.secrets),
    // terva's extension settings: zot.extensionSettings, and SecretStorage for secret ones; a change reaches the host.
    extensionSettings: new ExtensionSettings(context.secrets, (names) => manager().host.settingsChanged(names)),
    // @zot's conversations, kept per workspace: what terva's list_sessions and read_session answer.
    chatSessions: new ChatSessions(context.workspaceState, projectDir),
    traceSink: () => {
      const level = traceLevel();
      if (level === 'off') return undefined;
      return { level, line: (name, text) => logs.extensionLog(name, `[trace] ${text}`), secrets: () => [...secrets] };
    },
  };
}

/** The manager of the window's hosts: each made from the settings as they are when it starts. */
export function hostManager(p: WindowParts): HostManager {
  // terva's host_tool_call: the window's language model tools, asked for in a modal question, never zot's own.
  const hostTools = vscodeHostTools({ zotToolNames: () => mgr.host.tools().map((tool) => tool.name), log: (line) => p.logs.hostLog(line) });
  const mgr: HostManager = new HostManager(() => {
    const settings = readSettings();
    const trace = p.traceSink();
    p.gate.useSettings(settings);
    p.logs.hostLog(`host for ${projectDirs().join(', ') || '(no folder)'}; zot home ${settings.zotHome ?? '(default)'}; workspace ${vscode.workspace.isTrusted ? 'trusted' : 'not trusted'}${settings.extensionPaths.length ? `; explicit paths: ${settings.extensionPaths.join(', ')}` : ''}`);
    const host = new ZotHost({
      // Without a folder there is no project; the home folder is what a terminal would start in (zot takes its cwd).
      cwd: projectDir() ?? os.homedir(),
      projectDirs: projectDirs(),
      ...(settings.zotHome !== undefined && { zotHome: settings.zotHome, env: { ...process.env, ZOT_HOME: settings.zotHome } }),
      extensionPaths: settings.extensionPaths,
      timing: settings.timing,
      ui: p.ui,
      gate: p.gate.gate,
      services: { secrets: p.secretStore, sessions: p.chatSessions, hostTools },
      settings: p.extensionSettings,
      ...(trace && { trace }),
    });
    for (const value of p.secrets) host.keepSecret(value);
    return host;
  });
  return mgr;
}
