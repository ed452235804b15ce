// Writes a new, runnable zot extension: one command and one tool, its
// manifest and a README, in Node, Python or Go. No SDK is assumed: zot's wire
// format is enough, and the author sees every frame.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { go } from './go.js';
import { node } from './node.js';
import { python } from './python.js';
import type { Template, TemplateNames } from './template.js';

export const SCAFFOLD_LANGUAGES = ['node', 'python', 'go'] as const;
export type ScaffoldLanguage = (typeof SCAFFOLD_LANGUAGES)[number];

const TEMPLATES: Record<ScaffoldLanguage, Template> = { node, python, go };

/** Lower-case letters, digits, '-' and '_', starting with a letter or digit: safe as a folder, a log file and a Go module name. */
const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface ScaffoldOptions {
  dir: string;
  language: ScaffoldLanguage;
  /** Default: the folder's name. */
  name?: string;
}

export interface ScaffoldResult {
  dir: string;
  name: string;
  names: TemplateNames;
  files: string[];
}

/** Why a name cannot be an extension's, or undefined when it can. */
export function checkExtensionName(name: string): string | undefined {
  if (NAME_RE.test(name)) return undefined;
  return `"${name}" is not a usable extension name: use 1 to 64 lower-case letters, digits, "-" or "_", starting with a letter or digit`;
}

export function templateNames(name: string): TemplateNames {
  const snake = name.replace(/-/g, '_');
  return { name, command: name, tool: `${snake}_reverse`, binary: name };
}

/** The extension name a folder gives when none is passed: its name in lower case (zot's names are). */
export function nameFromFolder(dir: string): string {
  return path.basename(path.resolve(dir)).toLowerCase();
}

/**
 * Writes the extension into `dir` (created if missing; it must be empty).
 * Throws an Error whose message says what is wrong and where.
 */
export function scaffold(options: ScaffoldOptions): ScaffoldResult {
  const dir = path.resolve(options.dir);
  const name = options.name ?? nameFromFolder(dir);
  const bad = checkExtensionName(name);
  if (bad) throw new Error(options.name ? bad : `${bad} (taken from the folder name; pass a name)`);
  const template = TEMPLATES[options.language];
  if (!template) throw new Error(`unknown language "${options.language}": use one of ${SCAFFOLD_LANGUAGES.join(', ')}`);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new Error(`${dir} exists and is not a folder`);
    if (readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: choose a new folder`);
  }
  const names = templateNames(name);
  const files = template(names);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(dir, file);
    writeFileSync(target, content, { flag: 'wx' });
    if (file === 'main.py') chmodSync(target, 0o755);
  }
  return { dir, name, names, files: Object.keys(files).sort() };
}
