/** `zot-host init`: a new extension from the scaffold, and the commands that run it next. */
import * as path from 'node:path';
import { checkExtensionName, nameFromFolder, quoteProgramForCmd, scaffold } from '../host/index.js';
import { UsageError, type Parsed } from './args.js';
import { err, out } from './output.js';

export function init(p: Parsed): number {
  const dir = p.positional[0]!;
  const language = p.language!;
  const fromFolder = p.name === undefined;
  const name = p.name ?? nameFromFolder(dir);
  const bad = checkExtensionName(name);
  if (bad) throw new UsageError(fromFolder ? `${bad} (taken from the folder name; pass --name)` : bad);
  let result;
  try {
    result = scaffold({ dir, language, name });
  } catch (e) {
    err(`zot-host init: ${(e as Error).message}`);
    return 1;
  }
  const rel = path.relative(process.cwd(), result.dir) || '.';
  const shown = rel.startsWith('..') ? result.dir : rel;
  out(`wrote the ${language} extension "${result.name}" (command /${result.names.command}, tool ${result.names.tool}) in ${result.dir}:`);
  for (const f of result.files) out(`  ${f}`);
  out('\nnext:');
  for (const line of nextCommands(shown, language, result.names.tool, process.platform)) out(`  ${line}`);
  return 0;
}

/**
 * The commands that run a new extension, written for the shell of the
 * platform: a POSIX shell's quotes, or cmd.exe's on Windows (where single
 * quotes are no quotes at all, and a JSON argument's own quotes are escaped
 * with backslashes for the C runtime's parser).
 */
export function nextCommands(dir: string, language: string, tool: string, platform: NodeJS.Platform): string[] {
  const win = platform === 'win32';
  const q = commandWord(dir, platform);
  const args = win ? '"{\\"text\\":\\"hello\\"}"' : `'{"text":"hello"}'`;
  return [
    ...(language === 'go' ? [win ? `go -C ${q} build           build it first` : `(cd ${q} && go build)           build it first`] : []),
    `zot-host doctor --no-discover --ext ${q}`,
    `zot-host tool ${tool} ${args} --no-discover --ext ${q}`,
    `zot-host watch --no-discover --ext ${q} --trace   restart it on every save`,
  ];
}

/** A path as one word of a command line typed in the platform's shell, quoted only when it has to be. */
export function commandWord(s: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? quoteForCmdLine(s) : quoteForShell(s);
}

/** A path as a POSIX shell should see it: quoted only when it has to be. */
function quoteForShell(s: string): string {
  return /^[\w./@:-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A path as cmd.exe should see it: in double quotes when it has to be (no Windows name holds one). */
function quoteForCmdLine(s: string): string {
  return /^[\w.\\/@:-]+$/.test(s) ? s : quoteProgramForCmd(s);
}
