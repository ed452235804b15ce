/**
 * How an extension's state looks in VS Code: one place for the labels, icons
 * and colors the tree, the status bar, pickers and the report share.
 */
import * as vscode from 'vscode';
import { canStart, canStop, type ExtensionState, type ExtensionView, type Outcome } from '../../host/index.js';
import { t } from '../l10n.js';

interface StateLook {
  /** Short, lower-case, for a tree item's description. */
  label: string;
  icon: string;
  color?: string;
}

/** The labels are translated when asked for (activate() sets the language). */
const LOOKS: Record<ExtensionState, Omit<StateLook, 'label'> & { label: () => string }> = {
  starting: { label: () => t('starting…'), icon: 'loading~spin' },
  restarting: { label: () => t('restarting…'), icon: 'loading~spin', color: 'list.warningForeground' },
  ready: { label: () => t('ready'), icon: 'pass', color: 'testing.iconPassed' },
  auto_ready: { label: () => t('ready'), icon: 'pass', color: 'testing.iconPassed' },
  ready_timed_out: { label: () => t('ready (slow to start)'), icon: 'pass', color: 'list.warningForeground' },
  failed: { label: () => t('failed'), icon: 'error', color: 'testing.iconFailed' },
  disabled: { label: () => t('disabled'), icon: 'circle-slash', color: 'disabledForeground' },
  stopping: { label: () => t('stopping…'), icon: 'loading~spin', color: 'disabledForeground' },
  stopped: { label: () => t('stopped'), icon: 'debug-stop', color: 'disabledForeground' },
  held: { label: () => t('held'), icon: 'shield', color: 'list.warningForeground' },
};

export function stateLook(state: ExtensionState): StateLook {
  const look = LOOKS[state];
  return { ...look, label: look.label() };
}

export function stateIcon(state: ExtensionState): vscode.ThemeIcon {
  const look = LOOKS[state];
  return new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
}

/** How a call or command ended, in a word or two of VS Code's language. */
export function outcomeWord(outcome: Outcome): string {
  switch (outcome) {
    case 'completed': return t('completed');
    case 'canceled': return t('canceled');
    case 'timed_out': return t('timed out');
    case 'abandoned': return t('abandoned');
    case 'not_run': return t('not run');
    case 'disconnected': return t('disconnected');
  }
}

/** What a user can do with an extension in its current state. */
export interface Affordances {
  start: boolean;
  stop: boolean;
  restart: boolean;
  allow: boolean;
}

export function affordances(rt: ExtensionView, canAllow: boolean): Affordances {
  const k = rt.status.kind;
  return {
    start: rt.startable && canStart(rt.status) && k !== 'held',
    stop: canStop(rt.status),
    restart: rt.startable && (canStop(rt.status) || k === 'failed'),
    allow: k === 'held' && canAllow,
  };
}

/** Inline code for markdown, whatever backticks the text holds. */
export function code(text: string): string {
  const ticks = text.match(/`+/g)?.reduce((n, t) => Math.max(n, t.length), 0) ?? 0;
  const fence = '`'.repeat(ticks + 1);
  return `${fence}${ticks ? ' ' : ''}${text}${ticks ? ' ' : ''}${fence}`;
}

/** Plain text safe inside markdown: no accidental emphasis, links, HTML, table cells, or a list or heading at its start. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~$]/g, (c) => `\\${c}`).replace(/^(\s*)([#+-]|\d+[.)])(?=\s|$)/, (_m, sp: string, lead: string) => `${sp}${lead.slice(0, -1)}\\${lead.slice(-1)}`);
}
