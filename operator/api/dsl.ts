// One import for kind files: the schema builder and the shared pieces.
export * from './openapi.js';
export * from './common.js';
