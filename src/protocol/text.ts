/**
 * Text from an extension made safe to show on a terminal. Control characters
 * (C0 but newline and tab, DEL, C1) and the Unicode bidi controls would
 * otherwise let an extension move the cursor, erase lines or reorder what is
 * shown (a tool named `rm_rf_home\e[2K\r  tool harmless` prints as "tool
 * harmless"). Each becomes a visible `\uXXXX`; that is also a JSON escape, so
 * the same function serves JSON output and the value it encodes is unchanged.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_TEST = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const escapeOne = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every terminal control shown as `\uXXXX`; a CRLF line end stays a line end. */
export function terminalSafe(text: string): string {
  if (!UNSAFE_TEST.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, escapeOne);
}

/** Like terminalSafe, for one line: newlines and tabs are escaped too. */
export function singleLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return terminalSafe(text).replace(/[\n\t]/g, escapeOne);
}
