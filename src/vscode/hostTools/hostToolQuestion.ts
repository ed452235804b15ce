/**
 * What the modal question about a host tool call shows of it (hostTools.ts
 * asks): the fields that decide what runs first (a terminal's `command`, a
 * file's path…) and whole up to a generous bound, then the others, each
 * short; what was cut is said, never left to look whole. Control, bidi and
 * invisible characters and line breaks, in the tool's name as in the
 * arguments, are shown as visible marks: a U+202E cannot turn `rm -rf ~`
 * into something else to the eye, and a line break cannot hide a second
 * command below the first.
 */

/** Argument names that usually decide what a tool does, shown first and whole (up to DECISIVE_MAX). */
const DECISIVE = [
  'command', 'commandLine', 'cmd', 'script', 'code', 'program', 'args', 'argv', 'cwd', 'workingDirectory', 'env',
  'filePath', 'path', 'paths', 'file', 'files', 'uri', 'url', 'query', 'pattern', 'content', 'newString', 'oldString', 'edits', 'input',
];
/** Characters of one deciding field shown; past that it is cut, and said. */
export const DECISIVE_MAX = 2000;
/** Characters of any other field shown. */
export const OTHER_MAX = 200;
/** Fields shown at most; the names of the rest are said. */
export const FIELDS_MAX = 24;
/** Characters of the tool's or the extension's name shown. */
export const NAME_MAX = 120;

/** Line breaks, C0 and C1 controls, DEL, bidi controls and marks, invisible and zero-width characters. */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/** `s` with every character that could hide or reorder what is shown as a visible mark: `↵` for a line break, `⟨U+202E⟩` for the rest. */
export function neutralise(s: string): string {
  return s.replace(/\r\n/g, '\n').replace(HIDDEN, (c) => (c === '\n' ? '↵' : `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`));
}

/** `s` neutralised and cut at `max` characters, and how many were left out. */
function bounded(s: string, max: number): { text: string; left: number } {
  const n = neutralise(s);
  return n.length > max ? { text: `${n.slice(0, max)}…`, left: n.length - max } : { text: n, left: 0 };
}

export interface Question {
  /** The tool's name, as it may be shown. */
  tool: string;
  /** The extension's name, as it may be shown. */
  extension: string;
  /** One line per field shown, `name: value`, the deciding ones first. */
  fields: string[];
  /** What was cut, one phrase each (in English; the caller may say it in its own words around it). */
  cut: string[];
}

/** The question's parts for a call of `tool` by `extension` with `args`. */
export function hostToolQuestion(extension: string, tool: string, args: Record<string, unknown>): Question {
  const keys = Object.keys(args);
  const decisive = new Set(keys.filter((k) => DECISIVE.includes(k) || DECISIVE.includes(k.toLowerCase())));
  const ordered = [...keys.filter((k) => decisive.has(k)), ...keys.filter((k) => !decisive.has(k))];
  const fields: string[] = [];
  const cut: string[] = [];
  for (const k of ordered.slice(0, FIELDS_MAX)) {
    const v = args[k];
    const raw = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
    const name = bounded(k, 64).text;
    const shown = bounded(raw, decisive.has(k) ? DECISIVE_MAX : OTHER_MAX);
    fields.push(`${name}: ${shown.text}`);
    if (shown.left) cut.push(`"${name}": the last ${shown.left} of ${shown.left + (decisive.has(k) ? DECISIVE_MAX : OTHER_MAX)} characters`);
  }
  const rest = ordered.slice(FIELDS_MAX);
  if (rest.length) cut.push(`${rest.length} more field${rest.length === 1 ? '' : 's'} not shown: ${bounded(rest.join(', '), 300).text}`);
  return { tool: bounded(tool, NAME_MAX).text, extension: bounded(extension, NAME_MAX).text, fields, cut };
}
