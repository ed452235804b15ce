/**
 * A file replaced whole: written beside its place under a random name, then
 * renamed over it, so a reader never sees half of it and a link standing in
 * its place is replaced, never followed. The temporary file is removed when
 * the rename fails.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export async function replaceFile(file: string, text: string, mode: number): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fsp.writeFile(temp, text, { flag: 'wx', mode });
    await fsp.rename(temp, file);
  } catch (e) {
    await fsp.rm(temp, { force: true });
    throw e;
  }
}
