/**
 * The frames an extension sends for the user, carried out through the UI
 * port and the panels: run in order per extension (the runtime's UI queue),
 * never on the read path.
 */
import { NOTIFY_LEVELS, type FrameFromExt, type NotifyLevel } from '../../protocol/index.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import type { Panels } from './panels.js';
import type { HostUI } from '../port.js';

/** A notify frame's level, `info` for one zot does not know. */
export function noteLevel(level: string | undefined): NotifyLevel {
  return (NOTIFY_LEVELS as readonly string[]).includes(level ?? '') ? (level as NotifyLevel) : 'info';
}

/** `runSlash`: the host runs `/name args` itself (zot's submit_slash: a slash command without the model). */
export function dispatchUiFrame(rt: ExtensionRuntime, frame: FrameFromExt, ui: HostUI, panels: Panels, runSlash: (from: ExtensionRuntime, text: string) => Promise<void>): Promise<void> | void {
  switch (frame.type) {
    case 'notify': {
      return ui.notify(rt, noteLevel(frame.level), frame.message);
    }
    case 'clear_notes':
      return ui.clearNotes(rt);
    case 'submit': {
      // As zot: the trimmed text, if any is left.
      const text = frame.text.trim();
      return text ? ui.submit(rt, text) : undefined;
    }
    case 'submit_slash': {
      const text = frame.text.trim();
      if (!text.startsWith('/')) return rt.addProblem(`submit_slash refused: "${text.slice(0, 80)}" does not start with "/"`);
      return runSlash(rt, text);
    }
    case 'open_panel':
      return panels.openPanel(rt, frame.panel);
    case 'panel_render':
      return panels.render(rt, frame);
    case 'panel_close':
      return panels.closedByExtension(rt, frame.panel_id);
    default:
      return rt.addProblem(`unexpected "${frame.type}" frame`);
  }
}
