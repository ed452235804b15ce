/**
 * terva's `host_tool_call` answered with `vscode.lm.invokeTool` (docs/TERVA.md
 * 22). The rules are in hostToolRules.ts; this gives them the window's
 * tools, its trust and a modal question, since such a call comes outside any
 * chat turn and VS Code's own confirmation cannot show in a chat.
 */
import * as vscode from 'vscode';
import type { HostTools } from '../../host/index.js';
import { t } from '../l10n.js';
import { hostToolQuestion } from './hostToolQuestion.js';
import { HostToolRunner, type CallCancellation, type Permission } from './hostToolRules.js';

export interface HostToolsOptions {
  /** The names of the tools zot's extensions registered, now. */
  zotToolNames(): Iterable<string>;
  log(line: string): void;
}

export function vscodeHostTools(options: HostToolsOptions): HostTools {
  return new HostToolRunner({
    trusted: () => vscode.workspace.isTrusted,
    tools: () => vscode.lm.tools,
    zotToolNames: options.zotToolNames,
    ask,
    invoke,
    log: options.log,
  });
}

async function ask(extension: string, tool: string, args: Record<string, unknown>): Promise<Permission> {
  const allow = t('Allow');
  const always = t('Allow for This Session');
  // What decides what runs comes first and whole; hidden characters are shown as marks; a cut is said.
  const q = hostToolQuestion(extension, tool, args);
  const cut = q.cut.length ? `\n\n${t('Not shown whole:')} ${q.cut.join('; ')}` : '';
  const choice = await vscode.window.showWarningMessage(
    t('The zot extension "{0}" wants to run the tool "{1}".', q.extension, q.tool),
    { modal: true, detail: `${t('It asks outside any chat. Its arguments:')}\n${q.fields.join('\n') || '{}'}${cut}` },
    allow,
    always,
  );
  return choice === allow ? 'once' : choice === always ? 'session' : undefined;
}

async function invoke(name: string, input: Record<string, unknown>, cancel: CallCancellation): Promise<readonly unknown[]> {
  const source = new vscode.CancellationTokenSource();
  const link = cancel.onCancellationRequested(() => source.cancel());
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token);
    return result.content;
  } finally {
    link.dispose();
    source.dispose();
  }
}
