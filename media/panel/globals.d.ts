// What the panel page's scripts (panel.js, widgets.js) find as globals in
// the webview, for their type check (tsconfig.media.json); not shipped, and
// nothing of it runs. The messages are the contract's
// (src/protocol/pageContract.ts).
import type { FromWebview, PageState, Widget } from '../../src/protocol/pageContract.js';

declare global {
  /** The page's handle on the extension; VS Code lets a page take it once. */
  function acquireVsCodeApi(): {
    postMessage(message: FromWebview): void;
    /** What the page kept before it was reloaded, if anything (of an earlier version of the page, perhaps). */
    getState(): Partial<PageState> | undefined;
    setState(state: PageState): void;
  };

  interface Window {
    /** widgets.js's drawing of terva's widgets, for panel.js. */
    zotPanelWidgets: {
      draw(container: HTMLElement, widgets: readonly Widget[], onAction: (id: string) => void): void;
      isAction(target: EventTarget | null): boolean;
    };
  }
}
