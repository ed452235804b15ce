/**
 * "Zot: Run Extension Tool…": call a zot tool by hand, as the model would.
 * A non-interactive tool runs under a cancellable progress notification whose
 * Cancel cancels the call (with tool_cancel where supported); an interactive
 * one shows its own panel, and dismissing that panel cancels the call.
 */
import * as vscode from 'vscode';
import { blocksText, isOffered, type ToolOutcome } from '../../host/index.js';
import { describeOutcome } from '../chat/toolResults.js';
import type { HostManager } from '../core/hostManager.js';
import type { UiTrace } from '../ui/trace.js';
import { DisplayDocuments, fitsNotification } from '../ui/display.js';
import { t } from '../l10n.js';

export interface RunToolResult {
  outcome: ToolOutcome['outcome'] | 'cancelled_by_user';
  extension: string | null;
  isError?: boolean;
  text?: string;
  message?: string;
}

export function registerRunTool(manager: HostManager, display: DisplayDocuments, trace: UiTrace): vscode.Disposable {
  return vscode.commands.registerCommand('zot.runTool', (name?: unknown, args?: unknown) => runTool(manager, display, trace, name, args));
}

async function runTool(manager: HostManager, display: DisplayDocuments, trace: UiTrace, nameArg?: unknown, argsArg?: unknown): Promise<RunToolResult | undefined> {
  const host = manager.host;
  await host.whenLoaded();
  let name = typeof nameArg === 'string' ? nameArg : undefined;
  if (!name) {
    const picked = await vscode.window.showQuickPick(
      host.tools().filter(isOffered).map((tool) => ({ label: tool.name, description: tool.extension, detail: `${tool.interactive ? `$(comment-discussion) ${t('asks you')} · ` : ''}${tool.description}` })),
      { title: t('Run Extension Tool'), placeHolder: host.tools().length ? t('Pick a zot tool to call') : t('No zot extension provides tools right now'), matchOnDescription: true, matchOnDetail: true },
    );
    if (!picked) return undefined;
    name = picked.label;
  }
  const tool = host.findTool(name);
  let args: Record<string, unknown> | undefined = typeof argsArg === 'object' && argsArg !== null && !Array.isArray(argsArg) ? (argsArg as Record<string, unknown>) : undefined;
  if (!args) {
    const text = await vscode.window.showInputBox({
      title: `${name}${tool ? ` — ${tool.extension}` : ''}`,
      prompt: t('Arguments as a JSON object'),
      value: '{}',
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          const parsed: unknown = JSON.parse(v || '{}');
          return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? undefined : t('a JSON object, like {0}', '{"city": "Berlin"}');
        } catch (err) {
          return t('not JSON: {0}', (err as Error).message);
        }
      },
    });
    if (text === undefined) return { outcome: 'cancelled_by_user', extension: tool?.extension ?? null };
    args = JSON.parse(text || '{}') as Record<string, unknown>;
  }

  const source = new vscode.CancellationTokenSource();
  let outcome: ToolOutcome;
  try {
    outcome = tool?.interactive
      ? await host.runToolCall(name, args, { token: source.token })
      : await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: t('Running {0}…', name), cancellable: true },
          (_progress, token) => {
            token.onCancellationRequested(() => {
              trace.record('tool-progress-cancel', { tool: name });
              source.cancel();
            });
            return host.runToolCall(name!, args, { token: source.token });
          },
        );
  } finally {
    source.dispose();
  }
  const text = blocksText(outcome.content);
  trace.record('tool-run', { tool: name, extension: outcome.extension, outcome: outcome.outcome, isError: outcome.isError, text, message: outcome.message });
  const who = outcome.extension ? `${outcome.extension}: ` : '';
  if (outcome.outcome !== 'completed') {
    void vscode.window.showWarningMessage(`${who}${name} ${describeOutcome(outcome, true)}`);
  } else if (outcome.isError) {
    void vscode.window.showErrorMessage(`${who}${text ? t('{0} failed: {1}', name, text) : t('{0} failed', name)}`);
  } else if (fitsNotification(text)) {
    void vscode.window.showInformationMessage(`${who}${name}: ${text || t('(no content)')}`);
  } else {
    const uri = display.newOutput(outcome.extension ?? 'zot', text);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
  }
  return { outcome: outcome.outcome, extension: outcome.extension, isError: outcome.isError, text, message: outcome.message };
}
