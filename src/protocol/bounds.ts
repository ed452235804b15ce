/**
 * Bounds on JSON the host accepts from extensions and clients, and on JSON it
 * prints. Depth matters because the JSON engines downstream (JSON.stringify,
 * schema validators, the MCP SDK) recurse: a value nested a few thousand
 * levels deep makes them throw a RangeError, or never answer.
 *
 * A frame may nest at most MAX_JSON_DEPTH objects and arrays, the frame itself
 * being the first. Nothing legitimate comes near it: a JSON Schema for a tool
 * is rarely over 15 levels.
 */

export const MAX_JSON_DEPTH = 64;

/** Levels a value may use inside a frame (the frame's own object is one). */
export const MAX_VALUE_DEPTH = MAX_JSON_DEPTH - 1;

/**
 * Whether `value` nests more than `limit` objects and arrays. Recursion stops
 * at `limit + 1`, so this is safe on any depth; it visits each container once.
 */
export function deeperThan(value: unknown, limit: number): boolean {
  return typeof value === 'object' && value !== null && exceeds(value, limit);
}

function exceeds(value: object, left: number): boolean {
  if (left <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'object' && v !== null && exceeds(v, left - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const v: unknown = (value as Record<string, unknown>)[key];
    if (typeof v === 'object' && v !== null && exceeds(v, left - 1)) return true;
  }
  return false;
}

/** What takes the place of a value cut by `boundedStringify`. */
export const CUT_MARKER = `[cut: nested deeper than ${MAX_JSON_DEPTH} levels]`;

/**
 * JSON.stringify that cannot overflow the stack: parts nested deeper than
 * `limit` are replaced by CUT_MARKER. A value within the limit (the usual
 * case) is stringified as it is, without a copy.
 */
export function boundedStringify(value: unknown, space?: number, limit = MAX_JSON_DEPTH): string {
  return JSON.stringify(deeperThan(value, limit) ? cut(value, limit) : value, null, space) ?? 'null';
}

function cut(value: unknown, left: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (left <= 0) return CUT_MARKER;
  if (Array.isArray(value)) return value.map((v: unknown) => cut(v, left - 1));
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = cut((value as Record<string, unknown>)[key], left - 1);
  return out;
}

/**
 * Whether two JSON values are equal, whatever the order of their objects'
 * keys (Go writes a map's keys sorted, Python's json.dumps may): compared as
 * `boundedStringify` writes them with every object's keys sorted.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return boundedStringify(sortedKeys(a, MAX_JSON_DEPTH)) === boundedStringify(sortedKeys(b, MAX_JSON_DEPTH));
}

/** A copy with each object's keys in sorted order, down to `left` levels (below that, as it is: boundedStringify cuts it). */
function sortedKeys(value: unknown, left: number): unknown {
  if (typeof value !== 'object' || value === null || left <= 0) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => sortedKeys(v, left - 1));
  const o = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortedKeys(o[k], left - 1)]));
}
