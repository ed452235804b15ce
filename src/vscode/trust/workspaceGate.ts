/**
 * The host's `gate`: workspace trust and per-extension consent for code the
 * workspace brings (decisions in consent.ts and fingerprint.ts beside it). Asking never blocks loading:
 * the extension is held at once and a non-modal notification offers "Allow";
 * the answer (or the view's inline Allow action) starts it later.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FoundExtension, GateDecision } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import {
  consentKey, decide, needsConsent, REASON_DENIED, type ConsentRecord, type ConsentStore,
} from './consent.js';
import { describeRun, runFingerprint } from './fingerprint.js';
import type { LogChannels } from '../ui/logs.js';
import type { ZotSettings } from '../core/settings.js';
import type { UiTrace } from '../ui/trace.js';
import { t } from '../l10n.js';

const STORE_KEY = 'zot.consent.v1';
/** The consent question's two buttons, in VS Code's language. */
const allowLabel = (): string => t('Allow');
const dontAllowLabel = (): string => t("Don't Allow");

/**
 * How the question reaches the user: a non-modal notification with the
 * choices as buttons. A parameter so the test bundle can also answer it.
 */
export type ConsentQuestion = (extension: string, message: string, choices: readonly string[]) => Thenable<string | undefined>;

const notification: ConsentQuestion = (_extension, message, choices) => vscode.window.showInformationMessage(message, ...choices);

interface Held {
  dir: string;
  canAllow: boolean;
}

export class WorkspaceGate implements vscode.Disposable {
  private readonly held = new Map<string, Held>();
  /** Open questions: the fingerprint asked about, by extension name. */
  private readonly asking = new Map<string, string>();
  private settings: ZotSettings | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Whether an extension can be allowed changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: vscode.Memento,
    private readonly manager: () => HostManager,
    private readonly logs: LogChannels,
    private readonly trace: UiTrace,
    private readonly question: ConsentQuestion = notification,
  ) {}

  /** The settings of the host generation being created. */
  useSettings(settings: ZotSettings): void {
    this.settings = settings;
    this.held.clear();
  }

  /** HostOptions.gate. */
  readonly gate = async (found: FoundExtension): Promise<GateDecision> => {
    const needs = needsConsent(found, this.settings?.workspacePaths ?? new Set(), this.settings?.homeFromWorkspace === true);
    const trusted = vscode.workspace.isTrusted;
    const fingerprint = needs && trusted ? await runFingerprint(found) : '';
    const d = decide({ needsConsent: needs, trusted, fingerprint, record: this.records()[consentKey(found.dir)] });
    if (d.kind === 'start') {
      this.held.delete(found.name);
      return { start: true };
    }
    this.held.set(found.name, { dir: found.dir, canAllow: d.canAllow });
    this.logs.hostLog(`${found.name} (${found.dir}) is held: ${d.reason}`);
    if (d.ask) this.ask(found, fingerprint);
    this.changed.fire();
    return { start: false, reason: d.reason, hold: d.hold };
  };

  /** Whether the view may offer "Allow" for this extension. */
  canAllow(name: string): boolean {
    const held = this.held.get(name);
    // A removed folder's extension may have left its entry: only the extension held now counts.
    return held?.canAllow === true && this.manager().view.get(name)?.dir === held.dir && vscode.workspace.isTrusted;
  }

  /** Records consent for what the extension would run now, and starts it. */
  async allow(name: string): Promise<boolean> {
    if (!vscode.workspace.isTrusted) {
      this.trace.record('message', { level: 'warn', text: 'allow refused: workspace is not trusted', extension: name });
      void vscode.window.showWarningMessage(t('"{0}" comes from this workspace, which is not trusted. Trust the workspace first to run its zot extensions.', name), t('Manage Workspace Trust')).then((c) => {
        if (c) void vscode.commands.executeCommand('workbench.trust.manage');
      });
      return false;
    }
    const rt = this.manager().view.get(name);
    if (!rt) return false;
    const fingerprint = await runFingerprint(rt.found);
    await this.remember(rt.found.dir, { fingerprint, allowed: true, at: Date.now() });
    this.held.delete(name);
    this.asking.delete(name);
    this.changed.fire();
    this.logs.hostLog(`${name}: allowed to run in this workspace (${fingerprint.slice(0, 12)}…)`);
    this.trace.record('consent', { extension: name, allowed: true });
    await this.manager().startExtension(name);
    return true;
  }

  /** Records "Don't Allow" for what it would run now; it stays held without asking again. */
  async deny(name: string): Promise<void> {
    const rt = this.manager().view.get(name);
    if (!rt) return;
    const fingerprint = await runFingerprint(rt.found);
    await this.remember(rt.found.dir, { fingerprint, allowed: false, at: Date.now() });
    this.asking.delete(name);
    this.logs.hostLog(`${name}: not allowed to run in this workspace`);
    this.trace.record('consent', { extension: name, allowed: false });
    if (rt.status.kind === 'held') await this.manager().holdExtension(name, 'denied', REASON_DENIED);
  }

  /** Forgets every answer given in this workspace. */
  async forgetAll(): Promise<number> {
    const n = Object.keys(this.records()).length;
    await this.memento.update(STORE_KEY, undefined);
    this.trace.record('consent-reset', { count: n });
    return n;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private ask(found: FoundExtension, fingerprint: string): void {
    if (this.asking.get(found.name) === fingerprint) return;
    const answer = (choice: string | undefined): void => {
      if (this.asking.get(found.name) === fingerprint) this.asking.delete(found.name);
      void this.onAnswer(found, fingerprint, choice);
    };
    this.asking.set(found.name, fingerprint);
    void describeRun(found).then((run) => {
      const where = relativeToProject(found.dir);
      const what = [run.exec, ...run.args].join(' ');
      const unchecked = run.skipped.length ? ` ${t('Not checked for later changes: {0}.', run.skipped.join('; '))}` : '';
      const data = run.data.length
        ? ` ${t('Files git does not track that are not code count as its data and may change without asking again: {0}.', run.data.length > 3 ? t('{0} and {1} more', run.data.slice(0, 3).join(', '), run.data.length - 3) : run.data.join(', '))}`
        : '';
      const message = `${t('The workspace wants to run the zot extension "{0}": “{1}” in {2}. Allow it? Only allow code you trust.', found.name, what, where)}${unchecked}${data}`;
      this.trace.record('consent-asked', { extension: found.name, fingerprint, message });
      return this.question(found.name, message, [allowLabel(), dontAllowLabel()]);
    }).then(answer, () => answer(undefined));
  }

  private async onAnswer(found: FoundExtension, fingerprint: string, choice: string | undefined): Promise<void> {
    this.trace.record('consent-answer', { extension: found.name, choice: choice ?? null });
    const rt = this.manager().view.get(found.name);
    // A stale question (a reload or replacement since): only act if it is still about the same code.
    if (!rt || rt.dir !== found.dir || choice === undefined) return;
    const now = await runFingerprint(rt.found);
    if (now !== fingerprint) {
      this.logs.hostLog(`${found.name} changed while you were asked; asking again`);
      if (rt.status.kind === 'held') this.ask(rt.found, now);
      return;
    }
    if (choice === allowLabel()) await this.allow(found.name);
    else if (choice === dontAllowLabel()) await this.deny(found.name);
  }

  private records(): ConsentStore {
    return this.memento.get<ConsentStore>(STORE_KEY) ?? {};
  }

  private async remember(dir: string, record: ConsentRecord): Promise<void> {
    await this.memento.update(STORE_KEY, { ...this.records(), [consentKey(dir)]: record });
  }
}

/** Where it is, as the user sees the workspace: inside its folder (named when there are several), else in full. */
function relativeToProject(dir: string): string {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(dir));
  if (!folder) return dir;
  const rel = path.relative(folder.uri.fsPath, dir);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return dir;
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${rel}` : rel;
}
