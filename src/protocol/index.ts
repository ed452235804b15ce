export * from './frames.js';
export * from './lineSplitter.js';
export * from './validate.js';
