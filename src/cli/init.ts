/** `zot-host init`: a new extension from the scaffold, and the commands that run it next. */
import * as path from 'node:path';
import { checkExtensionName, nameFromFolder, scaffold } from '../host/index.js';
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
  const q = quote(shown);
  out(`wrote the ${language} extension "${result.name}" (command /${result.names.command}, tool ${result.names.tool}) in ${result.dir}:`);
  for (const f of result.files) out(`  ${f}`);
  out('\nnext:');
  if (language === 'go') out(`  (cd ${q} && go build)           build it first`);
  out(`  zot-host doctor --no-discover --ext ${q}`);
  out(`  zot-host tool ${result.names.tool} '{"text":"hello"}' --no-discover --ext ${q}`);
  out(`  zot-host watch --no-discover --ext ${q} --trace   restart it on every save`);
  return 0;
}

/** A path as the shell should see it: quoted only when it has to be. */
function quote(s: string): string {
  return /^[\w./@:-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
