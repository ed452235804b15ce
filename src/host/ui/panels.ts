/**
 * Extension panels as the host tracks them, and the tool calls they serve.
 * The UI gets a PanelHandle: what to show, and `key`, `resize` and
 * `dismiss` to answer with; it never reaches into the host.
 */
import type { FrameFromExt, PanelKey, PanelSpec } from '../../protocol/index.js';
import type { PendingRequest } from '../connection/requests.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import type { ToolOutcome } from '../outcomes.js';
import { MAX_PANELS_PER_CALL, PanelBudget } from './panelBudget.js';
import type { HostUI, PanelHandle, PanelUI } from './port.js';

interface ActiveCall {
  rt: ExtensionRuntime;
  call: PendingRequest<ToolOutcome>;
  interactive: boolean;
  /** Where its panels are shown, when not the host's UI. */
  ui?: PanelUI;
  /** Created when a panel binds to the call. */
  panels?: Set<OpenPanel>;
  /** A refusal over the per-call bound was said for this call. */
  refusedSaid?: boolean;
}

class OpenPanel implements PanelHandle {
  title = '';
  lines: string[] = [];
  footer = '';
  forToolCall = false;
  boundCall: ActiveCall | undefined;

  constructor(readonly uid: string, readonly rt: ExtensionRuntime, readonly id: string, private readonly panels: Panels) {}

  get extension(): ExtensionRuntime {
    return this.rt;
  }

  key(key: PanelKey, text?: string): void {
    if (!this.panels.isOpen(this)) return;
    this.rt.send(key === 'rune' ? { type: 'panel_key', panel_id: this.id, key, text: text ?? '' } : { type: 'panel_key', panel_id: this.id, key });
  }

  /** Only to an extension that asked for sizes in its hello: zot never sends them, and its SDKs log them as unknown frames. */
  resize(width: number, height: number): void {
    if (this.panels.isOpen(this) && this.rt.capabilities.includes('panel_resize')) this.rt.send({ type: 'panel_resize', panel_id: this.id, width: Math.max(1, Math.floor(width)), height: Math.max(1, Math.floor(height)) });
  }

  /** The user closed it: the extension is told, and the call it served is cancelled. */
  dismiss(): void {
    if (this.panels.forget(this)) this.boundCall?.call.cancel();
  }
}

export class Panels {
  private readonly open = new Map<string, OpenPanel>();
  /** Calls in flight, by wire id, for binding panels to them. */
  private readonly calls = new Map<string, ActiveCall>();
  private readonly budget = new PanelBudget();

  constructor(private readonly ui: () => HostUI) {}

  get list(): readonly PanelHandle[] {
    return [...this.open.values()];
  }

  isOpen(p: OpenPanel): boolean {
    return this.open.get(p.uid) === p;
  }

  /**
   * Follows a tool call in flight, so a panel can bind to it. A panel bound
   * to a call lives no longer than the call: whatever the outcome, the ones
   * still open close when it ends (the extension is told with panel_close).
   */
  track(rt: ExtensionRuntime, call: PendingRequest<ToolOutcome>, interactive: boolean, ui?: PanelUI): Promise<ToolOutcome> {
    // Wire ids are unique in the process, so the id alone is the key (callFor checks the extension).
    const active: ActiveCall = { rt, call, interactive };
    if (ui) active.ui = ui;
    this.calls.set(call.id, active);
    // At the moment it settles, before its caller hears of it: no promise hop per call.
    call.onSettled(() => {
      this.calls.delete(call.id);
      if (active.panels) for (const p of [...active.panels]) this.closeFromHost(p);
    });
    return call.result;
  }

  /** Opens (or replaces) a panel, binding it to the interactive call it serves. */
  async openPanel(rt: ExtensionRuntime, spec: PanelSpec): Promise<void> {
    const uid = `${rt.name}\0${spec.id}`;
    const existing = this.open.get(uid);
    const call = this.callFor(rt, spec.tool_call_id);
    if (!existing && !call) {
      const spontaneous = [...this.open.values()].filter((p) => p.rt === rt && !p.forToolCall).length;
      const admission = this.budget.admit(rt.name, spontaneous);
      if (!admission.ok) {
        if (admission.say) rt.addProblem(admission.say);
        rt.send({ type: 'panel_close', panel_id: spec.id });
        return;
      }
    }
    if (!existing && call && (call.panels?.size ?? 0) >= MAX_PANELS_PER_CALL) {
      if (!call.refusedSaid) rt.addProblem(`open_panel refused: tool call ${call.call.id} already has ${MAX_PANELS_PER_CALL} panels open (at most ${MAX_PANELS_PER_CALL} per call); further ones for this call are refused without a word`);
      call.refusedSaid = true;
      rt.send({ type: 'panel_close', panel_id: spec.id });
      return;
    }
    const panel = existing ?? new OpenPanel(uid, rt, spec.id, this);
    panel.title = spec.title ?? '';
    panel.lines = spec.lines ?? [];
    panel.footer = spec.footer ?? '';
    if (call) {
      if (panel.boundCall !== call) panel.boundCall?.panels?.delete(panel);
      panel.boundCall = call;
      panel.forToolCall = true;
      (call.panels ??= new Set()).add(panel);
    }
    this.open.set(uid, panel);
    const ui = this.uiOf(panel);
    // Nobody can answer it here; the call was refused before it started, so this is only a stray panel.
    if (!ui.interactive && call) rt.addProblem(`opened panel "${spec.id}" on a host that cannot show panels`);
    await (existing ? ui.renderPanel(panel) : ui.openPanel(panel));
  }

  render(rt: ExtensionRuntime, frame: Extract<FrameFromExt, { type: 'panel_render' }>): Promise<void> | void {
    const p = this.open.get(`${rt.name}\0${frame.panel_id}`);
    // As zot: extensions render after every change whether their panel is open or not.
    if (!p) return rt.log(`ignored panel_render for "${frame.panel_id}": that panel is not open`, 'info');
    // As zot: lines and footer are replaced (zot's Go SDK leaves empty ones out); an empty title keeps the old one.
    if (frame.title) p.title = frame.title;
    p.lines = frame.lines ?? [];
    p.footer = frame.footer ?? '';
    return this.uiOf(p).renderPanel(p);
  }

  /** The extension closed its panel. */
  closedByExtension(rt: ExtensionRuntime, panelId: string): Promise<void> | void {
    const p = this.open.get(`${rt.name}\0${panelId}`);
    if (!p) return undefined;
    this.drop(p);
    return this.uiOf(p).closePanel(p);
  }

  /** Its extension went away: its panels close. */
  closeAllOf(rt: ExtensionRuntime): void {
    for (const p of [...this.open.values()]) if (p.rt === rt) this.closeFromHost(p);
  }

  /** Every panel closes in the UI (stop, reload). */
  async closeAll(): Promise<void> {
    for (const p of [...this.open.values()]) {
      this.drop(p);
      await Promise.resolve(this.uiOf(p).closePanel(p)).catch(() => undefined);
    }
  }

  private callFor(rt: ExtensionRuntime, toolCallId: string | undefined): ActiveCall | undefined {
    if (toolCallId !== undefined) {
      const c = this.calls.get(toolCallId);
      return c?.rt === rt ? c : undefined;
    }
    // Without an explicit binding: the newest interactive call of this extension that has no panel yet.
    let found: ActiveCall | undefined;
    for (const c of this.calls.values()) if (c.rt === rt && c.interactive && !c.panels?.size) found = c;
    return found;
  }

  /** The host ends a panel (its call ended, its extension went away): the UI closes it and the extension is told. */
  private closeFromHost(p: OpenPanel): void {
    if (this.forget(p)) void Promise.resolve(this.uiOf(p).closePanel(p)).catch(() => undefined);
  }

  /** The UI a panel is shown in: its call's own, or the host's. */
  private uiOf(p: OpenPanel): PanelUI {
    return p.boundCall?.ui ?? this.ui();
  }

  /** Stops tracking a panel and tells its extension it closed. */
  forget(p: OpenPanel): boolean {
    if (!this.isOpen(p)) return false;
    this.drop(p);
    p.rt.send({ type: 'panel_close', panel_id: p.id });
    return true;
  }

  /** No longer open, nor counted among its call's panels. */
  private drop(p: OpenPanel): void {
    this.open.delete(p.uid);
    p.boundCall?.panels?.delete(p);
  }
}
