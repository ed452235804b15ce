/**
 * The host's UI for scripts, tests and the CLI (HeadlessUI), and a panel as
 * plain text for it and for every front end that shows a panel as text.
 */
import type { NotifyLevel } from '../../protocol/index.js';
import type { ExtensionRef, HostUI, PanelContent, PanelHandle } from '../port.js';
import { widgetLines } from './widgetText.js';

/** A UI for scripts and tests: nothing interactive, everything reported as a line. */
export class HeadlessUI implements HostUI {
  readonly interactive: boolean = false;
  constructor(private readonly report: (line: string) => void = () => undefined) {}
  notify(ext: ExtensionRef, level: NotifyLevel, message: string): void {
    this.report(`[${ext.name}] ${level}: ${message}`);
  }
  clearNotes(): void {}
  submit(ext: ExtensionRef, text: string): void {
    this.report(`[${ext.name}] asked to submit a prompt; not interactive, ignored: ${text}`);
  }
  insert(ext: ExtensionRef, text: string): void {
    this.report(`[${ext.name}] insert: ${text}`);
  }
  display(ext: ExtensionRef, text: string): void {
    this.report(`[${ext.name}] ${text}`);
  }
  openPanel(panel: PanelHandle): void {
    this.report(`[${panel.extension.name}] opened panel "${panel.id}" (not interactive: it cannot take keys here)\n${renderPanelText(panel)}`);
  }
  renderPanel(): void {}
  closePanel(): void {}
}

/** A plain-text rendering of a panel: title, lines (or the widgets as text, when it has some), footer. */
export function renderPanelText(panel: PanelContent): string {
  const body = panel.widgets.length ? widgetLines(panel.widgets).map((l) => l.text) : panel.lines;
  return [panel.title && `── ${panel.title} ──`, ...body, panel.footer && `(${panel.footer})`].filter((l) => l !== '').join('\n');
}
