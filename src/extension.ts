/** VS Code entry point; everything VS Code-specific lives in src/vscode. */
export { activate, deactivate } from './vscode/activation/activate.js';
