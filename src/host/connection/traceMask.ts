/**
 * What the verbose trace masks by a frame's shape, before the value-based
 * redactor runs: values are known secret by where they sit, whatever their
 * length. A call's arguments under the names every client masks (`token`,
 * `password`, `api_key`…, as terva's ALWAYS_REDACTED) and the tool's own
 * `display.redact` keys; terva's secret frames' `value`; the settings a
 * manifest declares secret in `hello_ack.config` and `config_update`. A frame
 * that failed validation is masked by the same rules, as far as it parses.
 */
import { isRedactedKey } from '../../protocol/index.js';
import { REDACTED } from './redact.js';

/** What the host knows about an extension that says which of its values are secret. */
export interface TraceFields {
  /** The `display.redact` keys of the tool of that name (the extension's own first, else the active one). */
  toolRedact(extension: string, tool: string): readonly string[];
  /** The keys of the extension's settings declared secret. */
  secretSettings(extension: string): readonly string[];
}

/** terva's frames that carry a secret's value in `value` (docs/TERVA.md 16.12, 17.5). */
const SECRET_FRAMES: ReadonlySet<string> = new Set(['secret_set', 'secret_value']);
/** Where a frame carries a call's arguments: tool_call's `args`, an event's `tool_args`, an intercept answer's `modified_args`. */
const ARG_FIELDS = ['args', 'tool_args', 'modified_args', 'arguments', 'input'] as const;
/** Where a frame names the tool those arguments are for. */
const TOOL_FIELDS = ['name', 'tool_name', 'tool'] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `v` with every value under a redacted key (at any depth) masked. */
function maskKeys(v: unknown, redact: readonly string[], depth = 0): unknown {
  if (depth > 64) return v;
  if (Array.isArray(v)) return v.map((x) => maskKeys(x, redact, depth + 1));
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) out[k] = isRedactedKey(k, redact) && x !== null && x !== '' ? REDACTED : maskKeys(x, redact, depth + 1);
  return out;
}

function maskFrame(f: Obj, extension: string, fields: TraceFields | undefined): Obj {
  const out: Obj = { ...f };
  if (typeof f.type === 'string' && (SECRET_FRAMES.has(f.type) || /secret/i.test(f.type)) && typeof f.value === 'string' && f.value !== '') out.value = REDACTED;
  const toolField = TOOL_FIELDS.find((k) => typeof f[k] === 'string');
  const tool = toolField ? (f[toolField] as string) : undefined;
  const redact = tool !== undefined && fields ? fields.toolRedact(extension, tool) : [];
  for (const k of ARG_FIELDS) if (k in f) out[k] = maskKeys(f[k], redact);
  if (isObj(f.config) && fields) {
    const secret = fields.secretSettings(extension);
    const config: Obj = { ...f.config };
    for (const k of secret) if (k in config && config[k] !== '' && config[k] !== null) config[k] = REDACTED;
    out.config = config;
  }
  return out;
}

/** A string member of JSON text, `"key": "value"`, found without parsing. */
const STRING_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/**
 * The frame's text with what its shape says is secret masked; unchanged
 * when nothing is. `valid` is false for a line that failed validation: its
 * secret-looking keys are masked at any depth, and where it is not JSON at
 * all, every string member named `value` or a secret-looking name.
 */
export function maskByShape(body: string, extension: string, fields: TraceFields | undefined, valid: boolean): string {
  let parsed: unknown;
  try { parsed = JSON.parse(body); } catch {
    return valid ? body : body.replace(STRING_MEMBER, (m, key: string, colon: string) => (key === 'value' || isRedactedKey(key) ? `"${key}"${colon}"${REDACTED}"` : m));
  }
  if (!isObj(parsed)) return body;
  let masked = maskFrame(parsed, extension, fields);
  if (!valid) masked = maskKeys(masked, []) as Obj;
  const text = JSON.stringify(masked);
  return text === JSON.stringify(parsed) ? body : text;
}
