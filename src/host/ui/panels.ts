/**
 * Extension panels as the host tracks them, and the tool calls they serve.
 * The UI gets a PanelHandle: what to show, and `key`, `resize` and
 * `dismiss` to answer with; it never reaches into the host.
 */
import type { FrameFromExt, PanelKey, PanelSpec } from '../../protocol/index.js';
import type { ToolCall } from '../extension/calls.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import { MAX_PANELS_PER_CALL, PanelBudget } from './panelBudget.js';
import type { HostUI, PanelHandle, PanelUI } from './port.js';

/**
 * A tool call in flight as its panels see it. Calls are found in their
 * connection's table of requests; one of these exists only once a panel
 * binds to the call (most calls open none, and cost nothing here).
 */
interface BoundCall {
  rt: ExtensionRuntime;
  call: ToolCall;
  /** Where its panels are shown, when not the host's UI. */
  ui: PanelUI | undefined;
  panels: Set<OpenPanel>;
  /** A refusal over the per-call bound was said for this call. */
  refusedSaid: boolean;
}

class OpenPanel implements PanelHandle {
  title = '';
  lines: string[] = [];
  footer = '';
  forToolCall = false;
  boundCall: BoundCall | undefined;

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
  /** The calls that have panels bound, by wire id (unique in the process). */
  private readonly bound = new Map<string, BoundCall>();
  private readonly budget = new PanelBudget();

  constructor(private readonly ui: () => HostUI) {}

  get list(): readonly PanelHandle[] {
    return [...this.open.values()];
  }

  isOpen(p: OpenPanel): boolean {
    return this.open.get(p.uid) === p;
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
    const full = !existing && call ? this.bound.get(call.id) : undefined;
    if (full && full.panels.size >= MAX_PANELS_PER_CALL) {
      if (!full.refusedSaid) rt.addProblem(`open_panel refused: tool call ${full.call.id} already has ${MAX_PANELS_PER_CALL} panels open (at most ${MAX_PANELS_PER_CALL} per call); further ones for this call are refused without a word`);
      full.refusedSaid = true;
      rt.send({ type: 'panel_close', panel_id: spec.id });
      return;
    }
    const panel = existing ?? new OpenPanel(uid, rt, spec.id, this);
    panel.title = spec.title ?? '';
    panel.lines = spec.lines ?? [];
    panel.footer = spec.footer ?? '';
    if (call) {
      const b = this.bind(rt, call);
      if (panel.boundCall !== b) panel.boundCall?.panels.delete(panel);
      panel.boundCall = b;
      panel.forToolCall = true;
      b.panels.add(panel);
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

  /**
   * The call a panel opened now serves: the one it names, if it is this
   * extension's and in flight; without a name, the newest interactive call
   * of this extension that has no panel yet.
   */
  private callFor(rt: ExtensionRuntime, toolCallId: string | undefined): ToolCall | undefined {
    if (toolCallId !== undefined) return rt.toolCall(toolCallId);
    let found: ToolCall | undefined;
    for (const c of rt.toolCalls()) if (c.spec.interactive && !this.bound.get(c.id)?.panels.size) found = c;
    return found;
  }

  /**
   * A panel binds to a call. A panel bound to a call lives no longer than the
   * call: whatever the outcome, the ones still open close when it ends (the
   * extension is told with panel_close), at the moment it settles, before its
   * caller hears of it.
   */
  private bind(rt: ExtensionRuntime, call: ToolCall): BoundCall {
    const known = this.bound.get(call.id);
    if (known) return known;
    const b: BoundCall = { rt, call, ui: call.spec.panelUi, panels: new Set(), refusedSaid: false };
    this.bound.set(call.id, b);
    call.onSettled(() => {
      this.bound.delete(call.id);
      for (const p of [...b.panels]) this.closeFromHost(p);
    });
    return b;
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
    p.boundCall?.panels.delete(p);
  }
}
