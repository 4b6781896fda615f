// A YAML stream parsed up to its first error. The yaml library reads on after an error and builds an
// error object (with a stack) for every later problem: text that is one error after another (a flow
// mapping on every line) cost about 20 s per MiB, ~700,000 errors, most of it capturing stacks. A payload
// fails at its first error anyway, so the composer is stopped there: reading such text costs what
// reaching its first error costs. (The composer's error handler and held document are not in the
// library's typings; yaml-first-error.test.ts notices if a new version changes them.)
import type { CST, Document, DocumentOptions, ErrorCode, ParseOptions, SchemaOptions } from 'yaml';
import { yamlLibrary } from './format-libraries.js';

export interface FirstError {
  code: ErrorCode;
  offset: number;
  /** 0-based index of the document being read when it was found. */
  document: number;
}

/** Where the composer says an error is (its typings keep these private). */
type ErrorSource = number | readonly number[] | { offset: number };
type ErrorHandler = (source: ErrorSource, code: ErrorCode, message: string, warning?: boolean) => void;

/** Thrown through the composer to stop it; never leaves parseUntilError. */
class Stop extends Error {
  constructor(readonly error: FirstError) {
    super('stopped at the first YAML error');
  }
}

export function parseUntilError(
  text: string,
  options: ParseOptions & DocumentOptions & SchemaOptions,
): { documents: Document.Parsed[] } | { error: FirstError } {
  const yaml = yamlLibrary();
  const composer = new yaml.Composer(options);
  const documents: Document.Parsed[] = [];
  // The composer yields a document when the next one has been composed: one it holds is counted too.
  const hooks = composer as unknown as { onError: ErrorHandler; doc: unknown };
  const keep = hooks.onError;
  let stop: Stop | undefined;
  hooks.onError = (source, code, message, warning) => {
    if (warning === true) return keep(source, code, message, warning);
    // The library catches what a collection throws and reports it as RESOURCE_EXHAUSTION (meant for a
    // stack overflow): the first error is thrown again from every such report.
    const document = documents.length + (hooks.doc === null ? 0 : 1);
    stop ??= new Stop({ code, offset: offsetOf(source), document });
    throw stop;
  };
  // Syntax errors come as error tokens, which the composer keeps without a call to its handler.
  function* tokens(): Generator<CST.Token> {
    for (const token of new yaml.Parser().parse(text)) {
      if (token.type === 'error') {
        // The composer gives an error token to the document it holds, or to the next one.
        throw new Stop({ code: 'UNEXPECTED_TOKEN', offset: token.offset, document: documents.length });
      }
      yield token;
    }
  }
  try {
    for (const document of composer.compose(tokens())) documents.push(document);
  } catch (error: unknown) {
    if (error instanceof Stop) return { error: error.error };
    throw error;
  }
  return { documents };
}

function offsetOf(source: ErrorSource): number {
  if (typeof source === 'number') return source;
  if (Array.isArray(source)) return (source as readonly number[])[0] ?? 0;
  return (source as { offset: number }).offset;
}
