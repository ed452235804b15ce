// Bundles the VS Code extension and the zot-host CLI.
//   node esbuild.mjs               development build (sourcemaps)
//   node esbuild.mjs --production  minified, no sourcemaps (what the VSIX ships)
//   node esbuild.mjs --watch       rebuild on change
//   --test-instruments             dist/extension.js from the test bundle's entry
//                                  (src/vscode/testing), for npm run package:test only
//   --outdir <dir>                 write there instead of dist/
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const testInstruments = process.argv.includes('--test-instruments');
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt < 0 ? 'dist' : process.argv[outdirAt + 1];
if (!outdir || outdir.startsWith('--')) throw new Error('esbuild.mjs: --outdir needs a folder');

/** Reports build results in the format VS Code's esbuild problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of [...result.errors, ...result.warnings]) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: watch ? 'silent' : 'warning',
  legalComments: 'none',
  define: { __HOST_VERSION__: JSON.stringify(version) },
  plugins: watch ? [problemMatcher] : [],
};

const targets = [
  {
    ...common,
    entryPoints: [testInstruments ? 'src/vscode/testing/extension.ts' : 'src/extension.ts'],
    outfile: `${outdir}/extension.js`,
    external: ['vscode'],
  },
  { ...common, entryPoints: ['src/cli.ts'], outfile: `${outdir}/cli.js`, banner: { js: '#!/usr/bin/env node' } },
  // zot-host's hook verb alone, for the hook command an agent starts on every tool call: a window's
  // answer needs a tenth of cli.js; anything more it requires from cli.js.
  { ...common, entryPoints: ['src/hook.ts'], outfile: `${outdir}/hook.js` },
  // Everything that needs the MCP SDK: loaded by the extension only when VS Code first asks for its
  // server, and by zot-host only for its mcp verb.
  { ...common, entryPoints: ['src/mcp/entry.ts'], outfile: `${outdir}/mcp.js` },
];
// The host as a library, for the tests and the benchmark; not shipped in the VSIX.
if (!production) targets.push({ ...common, entryPoints: ['src/host/index.ts'], outfile: `${outdir}/host.js` });

if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
}
