/**
 * Hiding secrets in what the host writes (the protocol trace, an extension's
 * problems and host lines): each value is found as written and in every form
 * a JSON encoder may give it inside a string: `\uXXXX` for any character in
 * either case (Python's `json.dumps` writes `ä` as `\u00e4`, Go writes `<&>` as
 * `\u003c\u0026\u003e`), the short escapes (`\"`, `\\`, `\/`, `\n`…), and
 * any mix of these, once or twice over (JSON text quoted in a JSON string).
 * Longer values are replaced first, so a secret that is a prefix of another
 * never leaves the longer one's tail behind.
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

/** JSON's short escapes, as written (`\"` for a quote). */
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `s` as a pattern matching itself; a lone surrogate cannot stand for itself in a well-formed string and is matched as itself all the same. */
function literal(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&').replace(/[\u0000-\u001f\u2028\u2029\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A pattern for one UTF-16 code unit in any JSON spelling, once or twice
 * escaped (JSON text inside a JSON string, as a tool's result that quotes
 * its arguments): as itself, `\uXXXX` in either case, a short escape.
 */
function unitPattern(unit: number): string {
  const ch = String.fromCharCode(unit);
  const hexAnyCase = [...unit.toString(16).padStart(4, '0')].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('');
  const once = SHORT_ESCAPES[ch] ? [SHORT_ESCAPES[ch]] : [];
  const twice = once.map((f) => JSON.stringify(f).slice(1, -1));
  const forms = [...new Set([ch, ...once, ...twice])].map(literal);
  forms.push(`\\\\u${hexAnyCase}`, `\\\\\\\\u${hexAnyCase}`);
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
