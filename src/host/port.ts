/**
 * The one interface through which the host reaches whatever UI it runs under
 * (zot's Go host calls this role HostHooks). The VS Code layer implements it
 * with VS Code UI; the CLI implements it headlessly.
 */
import type { NotifyLevel, PanelKey, Widget } from '../protocol/index.js';

/** The level of an extension's log line, as a front end shows it. */
export type LogLevel = 'info' | 'warn' | 'error';

/** What a UI needs to know about the extension behind a request. */
export interface ExtensionRef {
  readonly name: string;
  readonly dir: string;
}

/** What a panel shows. */
export interface PanelContent {
  readonly title: string;
  readonly lines: readonly string[];
  readonly footer: string;
  /** terva's widgets, validated; empty when the extension sent none. A UI that draws them shows them instead of `lines`. */
  readonly widgets: readonly Widget[];
}

/** A panel as the UI gets it: what to show, and how to answer. */
export interface PanelHandle extends PanelContent {
  /** Unique across extensions: panel ids are only unique within one extension. */
  readonly uid: string;
  readonly extension: ExtensionRef;
  readonly id: string;
  /** Whether it serves an interactive tool call (the ask-the-user case). */
  readonly forToolCall: boolean;
  /** A key the user pressed. */
  key(key: PanelKey, text?: string): void;
  /**
   * The user activated a widget action (a button, or a list item with an
   * `action_id`): the extension gets `panel_key` with that id as the key
   * (terva 17.7). An id the panel's widgets do not offer now is dropped.
   */
  action(actionId: string): void;
  /** The panel's size in columns and rows. */
  resize(width: number, height: number): void;
  /** The user closed it: the extension is told, and the call it served is cancelled. */
  dismiss(): void;
}

/** What the UI layers call a panel. */
export type Panel = PanelHandle;

export interface HostUI {
  /** false: interactive tools are refused as not run, panels cannot be shown. */
  readonly interactive: boolean;
  notify(ext: ExtensionRef, level: NotifyLevel, message: string): void | Promise<void>;
  clearNotes(ext: ExtensionRef): void | Promise<void>;
  /** Run the text as if the user typed it to the agent. */
  submit(ext: ExtensionRef, text: string): void | Promise<void>;
  insert(ext: ExtensionRef, text: string): void | Promise<void>;
  display(ext: ExtensionRef, text: string): void | Promise<void>;
  openPanel(panel: PanelHandle): void | Promise<void>;
  renderPanel(panel: PanelHandle): void | Promise<void>;
  /** Close the UI of a panel that the extension (or the host, for a finished call) closed. */
  closePanel(panel: PanelHandle): void | Promise<void>;
}

/**
 * What shows the panels of one tool call, when its caller has a UI of its own
 * (an MCP client that elicits or shows views). `session`: who made the call
 * (one MCP session); a panel opened without `tool_call_id` binds only to a
 * call of one session, never across.
 */
export type PanelUI = Pick<HostUI, 'interactive' | 'openPanel' | 'renderPanel' | 'closePanel'> & { readonly session?: object };
