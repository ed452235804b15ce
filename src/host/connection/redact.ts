/**
 * Hiding secrets in what the host writes (the protocol trace, an extension's
 * problems and host lines): each value is found as written and in every form
 * a JSON encoder may give it inside a string: `\uXXXX` for any character in
 * either case (Python's `json.dumps` writes `ä` as `\u00e4`, Go writes `<&>` as
 * `\u003c\u0026\u003e`), the short escapes (`\"`, `\\`, `\/`, `\n`…), and
 * any mix of these; and JSON inside a JSON string (a tool's result of JSON
 * text), where each escape's backslash is escaped again (`\\\"`). Longer
 * values are replaced first, so a secret that is a prefix of another never
 * leaves the longer one's tail behind.
 */

export const REDACTED = '«redacted»';
/** Shorter values are too likely to be ordinary words to replace. */
export const MIN_SECRET_LENGTH = 8;

const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE|CREDENTIAL|AUTH/i;

/** The values of secret-looking variables of `env`. */
export function envSecrets(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(k)) out.push(v);
  return out;
}

/** What follows the backslash of each short escape (a backslash is one escaped: backslashes alone). */
const SHORT_ESCAPES: Record<string, string> = { '"': '"', '\\': '', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
/** The backslash of an escape: one, or more where the JSON was itself escaped into a string (1, 3, 7… before a letter, 2, 4… for a backslash). */
const BACKSLASHES = '\\\\+';

/**
 * A pattern for one UTF-16 code unit in any JSON spelling, once or twice
 * escaped (JSON text inside a JSON string, as a tool's result that quotes
 * its arguments): as itself, `\uXXXX` in either case, a short escape.
 */
function unitPattern(unit: number): string {
  const ch = String.fromCharCode(unit);
  const hex = unit.toString(16).padStart(4, '0');
  const hexAnyCase = [...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('');
  const forms = [`${BACKSLASHES}u${hexAnyCase}`];
  // A lone surrogate cannot stand for itself in a well-formed string; it is matched as itself all the same.
  forms.push(ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&').replace(/[\u0000-\u001f\u2028\u2029\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) forms.push(`${BACKSLASHES}${short}`);
  return `(?:${forms.join('|')})`;
}

function secretPattern(secret: string): string {
  let p = '';
  for (let i = 0; i < secret.length; i++) p += unitPattern(secret.charCodeAt(i));
  return p;
}

/** A function that hides every value `secrets()` names, re-reading them at each call (a token may be made later). */
export function makeRedactor(secrets: () => readonly string[]): (text: string) => string {
  let key = '';
  let pattern: RegExp | undefined;
  return (text) => {
    const values = [...new Set(secrets().filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
    const k = values.join('\0');
    if (k !== key) {
      key = k;
      pattern = values.length ? new RegExp(values.map(secretPattern).join('|'), 'g') : undefined;
    }
    return pattern ? text.replace(pattern, REDACTED) : text;
  };
}
