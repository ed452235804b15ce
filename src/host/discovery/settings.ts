/**
 * An extension's settings as terva declares them: a `config` array in its
 * manifest, read without starting it (docs/TERVA.md 17.1), and the resolved map
 * that hello_ack's `config` and the `config_update` event carry: the
 * manifest's defaults overlaid by the user's values, keyed by field key,
 * keys sorted. A bad field never costs the extension: it is dropped and said.
 */
import type { JsonObject } from '../../protocol/index.js';

export const CONFIG_TYPES = ['string', 'bool', 'int', 'select', 'secret'] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

/** Fields of one extension kept; later ones are dropped. */
const MAX_CONFIG_FIELDS = 64;
/** A key is 1 to 64 of these characters. */
const KEY = /^[A-Za-z0-9_.-]{1,64}$/;

export interface ConfigField {
  key: string;
  label?: string;
  description?: string;
  type: ConfigType;
  default?: unknown;
  required: boolean;
  /** Masked in the UI, never logged, kept in the editor's secret storage (implied by type `secret`). */
  secret: boolean;
  /** The allowed values of a `select`. */
  options?: string[];
}

/** The manifest's `config` array as fields, and what was dropped and why. */
export function readConfigFields(raw: unknown): { fields: ConfigField[]; dropped: string[] } {
  const dropped: string[] = [];
  if (raw === undefined || raw === null) return { fields: [], dropped };
  if (!Array.isArray(raw)) return { fields: [], dropped: ['"config" is not a list; no settings read'] };
  const fields: ConfigField[] = [];
  for (const [i, item] of raw.entries()) {
    const where = `"config"[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) { dropped.push(`${where} is not an object; dropped`); continue; }
    const f = item as Record<string, unknown>;
    if (typeof f.key !== 'string' || !KEY.test(f.key)) { dropped.push(`${where}: "key" must be 1 to 64 of A-Z a-z 0-9 _ . -; dropped`); continue; }
    if (fields.some((x) => x.key === f.key)) { dropped.push(`${where}: key "${f.key}" comes twice; the first is kept`); continue; }
    if (fields.length >= MAX_CONFIG_FIELDS) { dropped.push(`${where}: only ${MAX_CONFIG_FIELDS} settings are read; dropped`); continue; }
    const type = f.type === undefined || f.type === null || f.type === '' ? 'string' : f.type;
    if (!(CONFIG_TYPES as readonly unknown[]).includes(type)) { dropped.push(`${where}: "type" must be one of ${CONFIG_TYPES.join(', ')}; dropped`); continue; }
    const field: ConfigField = { key: f.key, type: type as ConfigType, required: f.required === true, secret: type === 'secret' || f.secret === true };
    if (typeof f.label === 'string' && f.label) field.label = f.label.slice(0, 200);
    if (typeof f.description === 'string' && f.description) field.description = f.description.slice(0, 1000);
    if (field.type === 'select') {
      const options = Array.isArray(f.options) ? f.options.filter((o): o is string => typeof o === 'string') : [];
      if (options.length === 0) { dropped.push(`${where}: a "select" needs "options", a list of strings; dropped`); continue; }
      field.options = options.slice(0, 200);
    }
    if (f.default !== undefined && f.default !== null) {
      if (fits(field, f.default)) field.default = f.default;
      else dropped.push(`${where}: the default of "${f.key}" is not a ${field.type}${field.options ? ' option' : ''}; no default`);
    }
    fields.push(field);
  }
  return { fields, dropped };
}

/** Whether a value fits a field's type. */
export function fits(field: ConfigField, value: unknown): boolean {
  switch (field.type) {
    case 'bool': return typeof value === 'boolean';
    case 'int': return typeof value === 'number' && Number.isSafeInteger(value);
    case 'select': return typeof value === 'string' && (field.options ?? []).includes(value);
    case 'string':
    case 'secret': return typeof value === 'string';
  }
}

/**
 * The resolved settings: each field's default, then the user's value where
 * it fits the field (a secret field's from `secret`, never from `values`),
 * keys sorted. undefined when the extension declares no settings.
 */
export function resolveConfig(fields: readonly ConfigField[], values: Readonly<Record<string, unknown>> | undefined, secret: (key: string) => string | undefined = () => undefined): JsonObject | undefined {
  if (fields.length === 0) return undefined;
  const out: JsonObject = {};
  for (const f of [...fields].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const given = f.secret ? secret(f.key) : values?.[f.key];
    if (given !== undefined && given !== '' && fits(f, given)) out[f.key] = given;
    else if (f.default !== undefined) out[f.key] = f.default;
  }
  return out;
}
