/**
 * Extension panels as the host tracks them, and the tool calls they serve.
 * The UI gets a PanelHandle: what to show, and `key`, `resize` and
 * `dismiss` to answer with; it never reaches into the host.
 */
import { widgetActions, type FrameFromExt, type PanelKey, type PanelSpec, type Widget } from '../../protocol/index.js';
import type { ToolCall } from '../extension/calls.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import { MAX_PANELS_PER_CALL, PanelBudget } from './panelBudget.js';
import type { HostUI, PanelHandle, PanelUI } from '../port.js';

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
  widgets: readonly Widget[] = [];
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

  /** As terva's web panel: the id as the key, no text. Only ids the panel offers now: a click on a render that is gone is not sent. */
  action(actionId: string): void {
    if (this.panels.isOpen(this) && widgetActions(this.widgets).includes(actionId)) this.rt.send({ type: 'panel_key', panel_id: this.id, key: actionId });
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

type RenderFrame = Extract<FrameFromExt, { type: 'panel_render' }>;

/**
 * A panel a command's response opens, from the moment the response is read
 * until the front end carries it out: the extension may render or close it at
 * once, and those frames must not be lost to the time in between (zot opens
 * the panel as it reads the response, before the frames after it).
 */
interface Opening {
  rt: ExtensionRuntime;
  at: number;
  /** The last render sent meanwhile (a render replaces), or the close. */
  render: RenderFrame | undefined;
  closed: boolean;
}

/** How long a response's panel is waited for; a front end that does not open it by then never will. */
const OPENING_WAIT_MS = 30_000;
/** Responses' panels waited for at once, per extension; the oldest gives way. */
const MAX_OPENING = 8;

/** No call can be told for a panel: calls of more than one session wait for one. */
const AMBIGUOUS = Symbol('ambiguous');

/** A panel's key among all extensions' panels: its extension's name and its own id. */
const uidOf = (rt: ExtensionRuntime, panelId: string): string => `${rt.name}\0${panelId}`;

export class Panels {
  private readonly open = new Map<string, OpenPanel>();
  private readonly opening = new Map<string, Opening>();
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

  /**
   * A command's response that opens this panel was just read: until it is
   * carried out (`openPanel` with `answered`) or given up (`settled`), the
   * panel's renders and close wait for it.
   */
  expect(rt: ExtensionRuntime, panelId: string): void {
    this.sweep(Date.now());
    const uid = uidOf(rt, panelId);
    this.opening.delete(uid);
    const mine = [...this.opening].filter(([, o]) => o.rt === rt);
    if (mine.length >= MAX_OPENING) this.opening.delete(mine[0]![0]);
    this.opening.set(uid, { rt, at: Date.now(), render: undefined, closed: false });
  }

  /** The response was carried out, or not: its panel is no longer waited for. */
  settled(rt: ExtensionRuntime, panelId: string): void {
    this.opening.delete(uidOf(rt, panelId));
  }

  /** Drops what waits past OPENING_WAIT_MS. */
  private sweep(now: number): void {
    for (const [uid, o] of this.opening) if (now - o.at > OPENING_WAIT_MS) this.opening.delete(uid);
  }

  /** The wait for a response's panel, if one is on. */
  private waiting(uid: string): Opening | undefined {
    this.sweep(Date.now());
    return this.opening.get(uid);
  }

  /** The wait for a response's panel, ended: what came for the panel meanwhile. */
  private take(uid: string): Opening | undefined {
    const o = this.waiting(uid);
    this.opening.delete(uid);
    return o;
  }

  /**
   * Opens (or replaces) a panel, binding it to the interactive call it serves.
   * `answered`: opened by a command's response, so what the extension sent
   * for the panel since that response was read applies on top.
   */
  async openPanel(rt: ExtensionRuntime, spec: PanelSpec, answered = false): Promise<void> {
    const uid = uidOf(rt, spec.id);
    const since = answered ? this.take(uid) : undefined;
    // Closed by the extension before it was shown: as zot, opened and closed at once, so nothing shows.
    if (since?.closed) return;
    const existing = this.open.get(uid);
    const found = this.callFor(rt, spec.tool_call_id);
    if (found === AMBIGUOUS && !existing) {
      rt.addProblem(`open_panel "${spec.id}" without tool_call_id while calls of more than one session wait for a panel: it is bound to none and closed (name its call in tool_call_id)`);
      rt.send({ type: 'panel_close', panel_id: spec.id });
      return;
    }
    // Reopened while that is unclear: it stays with the call it serves.
    const call = found === AMBIGUOUS ? existing?.boundCall?.call : found;
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
    panel.widgets = spec.widgets ?? [];
    if (since?.render) applyRender(panel, since.render);
    const before = existing ? this.uiOf(existing) : undefined;
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
    // Reopened for another call: it leaves the view it was shown in (that call's, or the host's) for this call's own.
    if (before && before !== ui) await Promise.resolve(before.closePanel(panel)).catch(() => undefined);
    await (before === ui ? ui.renderPanel(panel) : ui.openPanel(panel));
  }

  render(rt: ExtensionRuntime, frame: RenderFrame): Promise<void> | void {
    const uid = uidOf(rt, frame.panel_id);
    const coming = this.waiting(uid);
    // Closed by its extension meanwhile: as zot, it was open and is shut, so a render after that is for no open panel.
    if (coming && !coming.closed) {
      coming.render = frame;
      // Shown as well when it is open already (a response that replaces it): the response's spec then comes under it.
      if (!this.open.has(uid)) return;
    }
    const p = this.open.get(uid);
    // As zot: extensions render after every change whether their panel is open or not.
    if (!p) return rt.log(`ignored panel_render for "${frame.panel_id}": that panel is not open`, 'info');
    applyRender(p, frame);
    return this.uiOf(p).renderPanel(p);
  }

  /** The extension closed its panel. */
  closedByExtension(rt: ExtensionRuntime, panelId: string): Promise<void> | void {
    const coming = this.waiting(uidOf(rt, panelId));
    if (coming) {
      coming.closed = true;
      coming.render = undefined;
    }
    const p = this.open.get(uidOf(rt, panelId));
    if (!p) return undefined;
    this.drop(p);
    return this.uiOf(p).closePanel(p);
  }

  /** Its extension went away: its panels close, and none of its responses' panels is waited for. */
  closeAllOf(rt: ExtensionRuntime): void {
    for (const [uid, o] of this.opening) if (o.rt === rt) this.opening.delete(uid);
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
   * of this extension that has no panel yet, where those calls are all of
   * one session (who made them: an MCP session, or the host's own UI);
   * AMBIGUOUS where they are of more than one, for that would be a guess.
   */
  private callFor(rt: ExtensionRuntime, toolCallId: string | undefined): ToolCall | typeof AMBIGUOUS | undefined {
    if (toolCallId !== undefined) return rt.toolCall(toolCallId);
    const waiting = [...rt.toolCalls()].filter((c) => c.spec.interactive && !this.bound.get(c.id)?.panels.size);
    const sessions = new Set(waiting.map((c) => (c.spec.panelUi ? c.spec.panelUi.session ?? c.spec.panelUi : undefined)));
    return sessions.size > 1 ? AMBIGUOUS : waiting.at(-1);
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

/** As zot: lines and footer are replaced (zot's Go SDK leaves empty ones out); an empty title keeps the old one; widgets are replaced as lines are. */
function applyRender(p: OpenPanel, frame: RenderFrame): void {
  if (frame.title) p.title = frame.title;
  p.lines = frame.lines ?? [];
  p.footer = frame.footer ?? '';
  p.widgets = frame.widgets ?? [];
}
