// Limits every payload format enforces on untrusted input (docs/codec-formats.md, "Limits"). A payload
// beyond one is SR3011 for the whole payload; a value to write beyond one is SR3008.

/**
 * Deepest nesting of arrays and objects (XML: elements; CBOR: arrays, maps and tags) a payload may have,
 * and a value may have to be written. Keeps every walk's recursion far from the stack limit and well
 * inside jq's own parsing limit.
 */
export const MAX_DEPTH = 256;

/** Nodes that YAML aliases may add to the JSON view of one payload (a "billion laughs" stops here). */
export const YAML_MAX_ALIAS_NODES = 100_000;

/** Characters of JSON view text that YAML aliases may add to one payload, so memory stays bounded. */
export const YAML_MAX_ALIAS_TEXT = 4 * 1024 * 1024;

/** Longest CBOR bignum (tag 2/3) content; turning one into decimal digits costs time quadratic in it. */
export const CBOR_MAX_BIGNUM_BYTES = 8 * 1024;

/**
 * Documents one YAML payload may hold. Each is one jq input, so a payload of bare `---` lines would
 * otherwise cost the event loop and the jq pool a run per four bytes; yaml-markers.ts refuses one with
 * more before the yaml library parses anything.
 */
export const YAML_MAX_DOCUMENTS = 1024;
