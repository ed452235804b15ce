#!/usr/bin/env node
// Fails when a bundle meant for users carries test instruments: the zot._test
// commands the suites once used, the switch that turned them on, or the test
// API the test bundle returns from activate() (which can answer the consent
// question and read the MCP bearer token). Run by `npm run package` on
// dist/extension.js before the VSIX is made.
//
//   node scripts/check-bundle.mjs <bundle.js>...
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Text that only test instruments put into a bundle, and what it gives away. */
export const TEST_INSTRUMENT_MARKS = [
  { text: 'zot._test', what: 'a test-only command id' },
  { text: 'ZOT_TEST_HOOKS', what: 'the environment switch for test commands' },
  { text: 'answerConsent', what: 'the test API answering the consent question' },
  { text: 'pendingConsent', what: 'the test API listing consent questions' },
  { text: 'mcpDefinitions', what: 'the test API reading the MCP bearer header' },
];

/** The marks found in a bundle's text. */
export function testInstrumentsIn(text) {
  return TEST_INSTRUMENT_MARKS.filter((m) => text.includes(m.text));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (!files.length) {
    console.error('usage: node scripts/check-bundle.mjs <bundle.js>...');
    process.exit(2);
  }
  let bad = 0;
  for (const file of files) {
    for (const m of testInstrumentsIn(readFileSync(file, 'utf8'))) {
      console.error(`${file}: contains "${m.text}" (${m.what}); the shipped bundle must not carry test instruments (rule: no test instruments in the product)`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
}
