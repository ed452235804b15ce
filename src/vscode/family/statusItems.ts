/**
 * terva's status segments (docs/TERVA.md 16.7, 22): one status bar item per
 * running extension that has any, its segments joined, beside the zot
 * summary item. An item goes when its segments are cleared, when its
 * extension stops or exits (the host lists running extensions only), when
 * the host is replaced, and with the window. A click shows that extension's
 * log.
 */
import * as vscode from 'vscode';
import type { StatusEntry } from '../../host/index.js';
import type { HostManager } from '../activation/hostManager.js';
import { segmentItemName, segmentItemText, segmentsLine, segmentTooltip } from './segmentText.js';

/** Just right of the summary item (priority 50): higher priorities go further left. */
const PRIORITY = 49;

/** What one item shows, as the test API reads it back. */
export interface SegmentItemView {
  extension: string;
  id: string;
  name: string;
  text: string;
  tooltip: string;
  command: string | undefined;
  arguments: unknown[];
}

export class SegmentItems implements vscode.Disposable {
  private readonly items = new Map<string, vscode.StatusBarItem>();
  private readonly subs: vscode.Disposable[];

  constructor(private readonly manager: HostManager) {
    this.subs = [
      manager.onDidChangeTerva((e) => { if (e.what === 'status') this.update(); }),
      manager.onDidChangeState(() => this.update()),
      // A replaced host is a new set of extensions.
      manager.onDidChangeRegistry(() => this.update()),
    ];
    this.update();
  }

  /** Redraws at once, as terva does: new items, changed texts, gone ones disposed. */
  update(): void {
    const entries = this.manager.view.statusSegments();
    const shown = new Set<string>();
    for (const entry of entries) {
      shown.add(entry.extension);
      let item = this.items.get(entry.extension);
      if (!item) {
        item = vscode.window.createStatusBarItem(itemId(entry.extension), vscode.StatusBarAlignment.Left, PRIORITY);
        item.name = segmentItemName(entry.extension);
        item.command = { command: 'zot.showLog', title: segmentItemName(entry.extension), arguments: [entry.extension] };
        this.items.set(entry.extension, item);
      }
      draw(item, entry);
      item.show();
    }
    for (const [name, item] of this.items) {
      if (shown.has(name)) continue;
      item.dispose();
      this.items.delete(name);
    }
  }

  /** The items shown, ordered by extension name. */
  describe(): SegmentItemView[] {
    return [...this.items].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([extension, item]) => {
      const c = item.command;
      return {
        extension,
        id: item.id,
        name: item.name ?? '',
        text: item.text,
        tooltip: typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value ?? '',
        command: typeof c === 'string' ? c : c?.command,
        arguments: typeof c === 'object' ? [...(c.arguments ?? [])] : [],
      };
    });
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    for (const item of this.items.values()) item.dispose();
    this.items.clear();
  }
}

function draw(item: vscode.StatusBarItem, entry: StatusEntry): void {
  item.text = segmentItemText(entry);
  // A plain string: the hover shows it as text, with no Markdown and no icons.
  item.tooltip = segmentTooltip(entry);
  item.accessibilityInformation = { label: `${segmentItemName(entry.extension)}: ${segmentsLine(entry)}` };
}

/** Stable per extension, so VS Code keeps a user's choice to hide one across reloads. */
function itemId(extension: string): string {
  return `zot.segments.${extension}`;
}
