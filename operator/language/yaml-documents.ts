// The documents of a YAML stream, read until MAX_YAML_ERRORS errors. The yaml library reads on after an
// error and builds an error object (with a stack) for every later problem: text that is one error after
// another (a flow mapping on every line) cost about 20 s per MiB and ~700,000 errors, and their
// diagnostics overflowed the stack when spread into one push. Past the limit the composer is stopped: the
// documents finished before load as usual, the one being read reports its errors so far and where reading
// stopped. (The composer's error handler, errors and held document are not in the library's typings;
// yaml-documents.test.ts notices if a new version changes them.)
import {
  type CST,
  type Document,
  type DocumentOptions,
  type LineCounter,
  type ParseOptions,
  type SchemaOptions,
  type YAMLError,
} from 'yaml';
import { yamlLib } from './yaml-lib.js';

/** Errors read before a stream is given up: far more than a person fixes in one go. */
export const MAX_YAML_ERRORS = 100;

export interface YamlDocuments {
  documents: Document.Parsed[];
  /**
   * Set when reading stopped: the errors of the document being read, the offset reading stopped at, and
   * why — too many errors, or the parser ran out of stack (text it nests deeper than the indentation and
   * brackets show, which the nesting pre-scan cannot see).
   */
  stopped?: { errors: YAMLError[]; offset: number; why: 'errors' | 'stack' };
}

type ErrorSource = number | readonly number[] | { offset: number };
type ErrorHandler = (source: ErrorSource, code: string, message: string, warning?: boolean) => void;
interface ComposerState {
  onError: ErrorHandler;
  errors: YAMLError[];
  doc: Document.Parsed | null;
}

class Stop extends Error {
  constructor(readonly offset: number) {
    super('too many YAML errors');
  }
}

export function readYamlDocuments(
  text: string,
  options: ParseOptions & DocumentOptions & SchemaOptions,
  lineCounter: LineCounter,
): YamlDocuments {
  const composer = new (yamlLib().Composer)(options);
  const state = composer as unknown as ComposerState;
  const documents: Document.Parsed[] = [];
  const keep = state.onError;
  let errors = 0;
  let stop: Stop | undefined;
  state.onError = (source, code, message, warning) => {
    // The library catches what a collection throws and reports it again: the stop is thrown from there too.
    if (stop !== undefined) throw stop;
    keep(source, code, message, warning);
    if (warning !== true && ++errors >= MAX_YAML_ERRORS) throw (stop = new Stop(offsetOf(source)));
  };
  // Syntax errors also come as error tokens, which the composer keeps without a call to its handler.
  let reached = 0;
  function* tokens(): Generator<CST.Token> {
    for (const token of new (yamlLib().Parser)(lineCounter.addNewLine).parse(text)) {
      if (token.type === 'error' && ++errors >= MAX_YAML_ERRORS) throw (stop = new Stop(token.offset));
      reached = token.offset;
      yield token;
    }
  }
  try {
    for (const document of composer.compose(tokens())) documents.push(document);
  } catch (error: unknown) {
    // V8 reports a stack overflow only by this RangeError message; the parser's state is dropped with it
    if (error instanceof RangeError && /call stack/i.test(error.message))
      return { documents, stopped: { errors: [], offset: reached, why: 'stack' } };
    if (!(error instanceof Stop)) throw error;
    if (state.doc !== null) documents.push(state.doc);
    return { documents, stopped: { errors: state.errors, offset: error.offset, why: 'errors' } };
  }
  return { documents };
}

function offsetOf(source: ErrorSource): number {
  if (typeof source === 'number') return source;
  if (Array.isArray(source)) return (source as readonly number[])[0] ?? 0;
  return (source as { offset: number }).offset;
}
