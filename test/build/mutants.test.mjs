// The mutation pass (scripts/mutate.mjs) stays in step with the code: a
// mutant whose snippet the code no longer has would be "not applicable" and
// silently stop counting, so every snippet must be found exactly once; and
// each mutant's own tests load the file it breaks (else only the wider set,
// slowly, could catch it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test('every mutant of the mutation pass applies to the code as it is', () => {
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'mutate.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `stale mutants:\n${r.stderr}`);
  assert.match(r.stdout, /^(\d+) of \1 mutants apply$/m);
  assert.match(r.stdout, /^(\d+) of \1 mutants are loaded by their own tests$/m);
});
