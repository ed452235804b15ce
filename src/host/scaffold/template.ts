/** Names a template fills in, all derived from the extension's name. */
export interface TemplateNames {
  /** The extension's name, as in extension.json. */
  name: string;
  /** The slash command it registers. */
  command: string;
  /** The tool it registers (snake case, as model tool names usually are). */
  tool: string;
  /** The Go binary's file name. */
  binary: string;
}

/** A template: relative file path → content. */
export type Template = (names: TemplateNames) => Record<string, string>;
