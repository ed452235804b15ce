/**
 * The palette and view commands. Each one also takes its input as arguments
 * (`executeCommand('zot.runCommand', 'todo-add', 'milk')`), so it can be
 * driven without UI; without arguments it asks with a QuickPick or an input
 * box. Results are returned for callers that want them. The commands live in
 * one module per kind of work; this one registers them.
 */
import * as vscode from 'vscode';
import { DiagnosticsCommands } from './diagnostics.js';
import { FolderCommands } from './folders.js';
import { InstallCommands } from './installs.js';
import { CommandKit, type CommandDeps } from './kit.js';
import { LifecycleCommands } from './lifecycle.js';
import { RunCommands } from './running.js';

export type { CommandDeps } from './kit.js';
export type { RunResult } from './running.js';

export class Commands {
  private readonly running: RunCommands;
  private readonly lifecycle: LifecycleCommands;
  private readonly diagnostics: DiagnosticsCommands;
  private readonly folders: FolderCommands;
  private readonly installs: InstallCommands;

  constructor(d: CommandDeps) {
    const kit = new CommandKit(d);
    this.running = new RunCommands(kit);
    this.lifecycle = new LifecycleCommands(kit);
    this.diagnostics = new DiagnosticsCommands(kit);
    this.folders = new FolderCommands(kit);
    this.installs = new InstallCommands(kit);
  }

  register(): vscode.Disposable[] {
    const r = (id: string, fn: (...args: unknown[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, fn);
    const { running, lifecycle, diagnostics, folders, installs } = this;
    return [
      r('zot.runCommand', (a, b) => running.runCommand(a, b)),
      r('zot.reload', () => lifecycle.reload()),
      r('zot.startExtension', (a) => lifecycle.start(a)),
      r('zot.stopExtension', (a) => lifecycle.stop(a)),
      r('zot.restartExtension', (a) => lifecycle.restart(a)),
      r('zot.allowExtension', (a) => lifecycle.allow(a)),
      r('zot.showLog', (a) => diagnostics.showLog(a)),
      r('zot.showDiagnostics', () => diagnostics.showDiagnostics()),
      r('zot.openExtensionsFolder', (a) => folders.openExtensionsFolder(a)),
      r('zot.revealExtensionFolder', (a) => folders.revealExtensionFolder(a)),
      r('zot.openManifest', (a) => folders.openManifest(a)),
      r('zot.installFromFolder', (a, b) => installs.installFromFolder(a, b)),
      r('zot.installSamples', () => installs.installSamples()),
      r('zot.resetWorkspacePermissions', () => lifecycle.resetPermissions()),
    ];
  }

  /** The report, for the live update of an open diagnostics document. */
  diagnosticsText(): string {
    return this.diagnostics.diagnosticsText();
  }
}
