export * from './discovery.js';
export * from './extension.js';
export * from './host.js';
export * from './manifest.js';
export * from './outcomes.js';
export * from './paths.js';
export * from './ui.js';
export { CancellationTokenSource } from 'vscode-jsonrpc/node';
export * from '../protocol/index.js';
