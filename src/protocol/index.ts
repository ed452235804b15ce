export * from './bounds.js';
export * from './frames.js';
export * from './lineSplitter.js';
export * from './terva.js';
export * from './text.js';
export * from './validate.js';
export * from './widgets.js';
export * from './cursor.js';
