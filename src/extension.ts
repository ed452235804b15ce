/** VS Code entry point; everything VS Code-specific lives in src/vscode. */
import type * as vscode from 'vscode';
import { activateWith } from './vscode/activation/activate.js';

export { deactivate } from './vscode/activation/activate.js';

/** What VS Code calls: the product as shipped, with no test instruments. */
export function activate(context: vscode.ExtensionContext): void {
  activateWith(context);
}
