/**
 * The entry point of the test bundle (`node esbuild.mjs --test-instruments`,
 * used by `npm run package:test` for the end-to-end suites). It activates the
 * product exactly as src/extension.ts does, plus the instruments, and returns
 * the test API as the extension's exports. Never part of the shipped VSIX:
 * `npm run package` builds src/extension.ts and checks the bundle for this.
 */
import type * as vscode from 'vscode';
import { activateWith } from '../activation/activate.js';
import { ConsentQuestions } from './consentQuestions.js';
import { createTestApi, type TestApi } from './testApi.js';

export { deactivate } from '../activation/activate.js';

export function activate(context: vscode.ExtensionContext): TestApi {
  const consent = new ConsentQuestions();
  let api: TestApi | undefined;
  activateWith(context, {
    consentQuestion: consent.ask,
    wired: (parts) => {
      const made = createTestApi(parts, consent);
      context.subscriptions.push(...made.disposables);
      api = made.api;
    },
  });
  if (!api) throw new Error('activation did not hand its parts to the test instruments');
  return api;
}
