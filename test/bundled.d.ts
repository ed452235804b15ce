// The types of the source modules tests bundle and load (test/helpers.mjs,
// bundleSources): each is the module's own, read from src/, so a test of a
// bundled module is checked against what it calls. A module a test bundles is
// named here once, by its path under src/.
export interface BundledSources {
  'protocol/pageContract': typeof import('../src/protocol/pageContract');
  'host/process/treeKill': typeof import('../src/host/process/treeKill');
  'host/discovery/folderWatch': typeof import('../src/host/discovery/folderWatch');
  'host/ui/panelBudget': typeof import('../src/host/ui/panelBudget');
  'host/turn/workspaceChanges': typeof import('../src/host/turn/workspaceChanges');
  'host/turn/workspaceFiles': typeof import('../src/host/turn/workspaceFiles');
  'mcp/shared/elicit': typeof import('../src/mcp/shared/elicit');
  'vscode/l10n': typeof import('../src/vscode/l10n');
  'vscode/trust/consent': typeof import('../src/vscode/trust/consent');
  'vscode/trust/fingerprint': typeof import('../src/vscode/trust/fingerprint');
  'vscode/trust/workspaceGate': typeof import('../src/vscode/trust/workspaceGate');
  'vscode/ui/noteLimiter': typeof import('../src/vscode/ui/noteLimiter');
  'vscode/commands/install': typeof import('../src/vscode/commands/install');
  'vscode/core/jsonc': typeof import('../src/vscode/core/jsonc');
  'vscode/chat/callOutcome': typeof import('../src/vscode/chat/callOutcome');
  'vscode/chat/modelView': typeof import('../src/vscode/chat/modelView');
  'vscode/hostTools/hostToolRules': typeof import('../src/vscode/hostTools/hostToolRules');
  'vscode/hostTools/hostTools': typeof import('../src/vscode/hostTools/hostTools');
  'vscode/chat/limits': typeof import('../src/vscode/chat/limits');
  'vscode/chat/rounds': typeof import('../src/vscode/chat/rounds');
  'vscode/chat/toolChoice': typeof import('../src/vscode/chat/toolChoice');
  'vscode/chat/modelLoop': typeof import('../src/vscode/chat/modelLoop');
  'vscode/chat/participant': typeof import('../src/vscode/chat/participant');
  'vscode/chat/sessions': typeof import('../src/vscode/chat/sessions');
  'vscode/chat/systemPrompt': typeof import('../src/vscode/chat/systemPrompt');
  'vscode/chat/workspaceWatch': typeof import('../src/vscode/chat/workspaceWatch');
  'vscode/terva/segmentText': typeof import('../src/vscode/terva/segmentText');
  'vscode/terva/secretStore': typeof import('../src/vscode/terva/secretStore');
  'vscode/panels/panels': typeof import('../src/vscode/panels/panels');
  'vscode/panels/webviewPanels': typeof import('../src/vscode/panels/webviewPanels');
  'vscode/hooks/hookFile': typeof import('../src/vscode/hooks/hookFile');
  'vscode/mcp/serverLifecycle': typeof import('../src/vscode/mcp/serverLifecycle');
}

/** The last segment of a path: 'trust/consent' → 'consent'. */
type BaseName<P extends string> = P extends `${string}/${infer Rest}` ? BaseName<Rest> : P;

/** What bundleSources(outdir, F, N[]) resolves to: each module under its base name. */
export type Bundled<F extends string, N extends string> = {
  [P in N as BaseName<P>]: `${F}/${P}` extends keyof BundledSources ? BundledSources[`${F}/${P}`] : never;
};
