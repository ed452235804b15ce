/** Logs and diagnostics: an extension's log channel, and the diagnostics report. */
import * as vscode from 'vscode';
import { projectDir, projectDirs, readSettings } from '../core/settings.js';
import { diagnosticsMarkdown, reportTitle } from '../views/report.js';
import type { CommandKit } from './kit.js';
import { t } from '../l10n.js';

export class DiagnosticsCommands {
  constructor(private readonly k: CommandKit) {}

  async showLog(a?: unknown): Promise<string | undefined> {
    if (this.k.host.extensions.length === 0) {
      this.k.d.logs.show();
      return 'Zot Extensions';
    }
    const rt = await this.k.pickExtension(a, t('Show the log of which zot extension?'), () => true);
    if (!rt) return undefined;
    this.k.d.logs.show(rt.name);
    return `Zot: ${rt.name}`;
  }

  async showDiagnostics(): Promise<string> {
    const project = projectDir();
    const uri = this.k.d.display.named(reportTitle(project));
    this.k.d.display.set(uri, this.diagnosticsText());
    const commands = await vscode.commands.getCommands(true);
    if (commands.includes('markdown.showPreview')) await vscode.commands.executeCommand('markdown.showPreview', uri);
    else await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return uri.toString();
  }

  /** The report, for the live update of an open diagnostics document. */
  diagnosticsText(): string {
    return diagnosticsMarkdown(this.k.host, {
      projects: projectDirs(),
      trusted: vscode.workspace.isTrusted,
      explicitPaths: readSettings().extensionPaths,
      vscodeVersion: vscode.version,
    });
  }
}
