/**
 * The words of the extension's own UI in VS Code's display language. `t()`
 * is `vscode.l10n.t` once activate() has handed it over (translations in
 * l10n/bundle.l10n.<language>.json, keyed by the English message); before
 * that, and in plain Node where the unit tests run the pure modules, it is
 * the English message with its `{0}`, `{1}`… filled in. Call it where the
 * text is shown, never at module load (activate() has not run then).
 *
 * What stays English on purpose: what the model reads (tool results, the
 * words for how a call ended), what extensions are sent, the host's own
 * account of a problem (shared with zot-host), logs, the diagnostics report
 * (written to be pasted into a bug report) and the zot-host CLI.
 */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** The message with `{n}` replaced by the n-th argument, as vscode.l10n.t does for a message without a translation. */
export const english: Translate = (message, ...args) =>
  args.length ? message.replace(/\{(\d+)\}/g, (whole, n: string) => (Number(n) < args.length ? String(args[Number(n)]) : whole)) : message;

let translate: Translate = english;

/** Set once by activate() to `vscode.l10n.t`. */
export function useTranslator(fn: Translate): void {
  translate = fn;
}

export function t(message: string, ...args: Array<string | number | boolean>): string {
  return translate(message, ...args);
}
