// Names as people read them (docs/decisions/0025-names-as-typed.md): an object made from a statement is
// shown by the identifier the statement wrote (`Orders_In`), one made from YAML by its resource name
// (`orders-in`). The origin is the `streamroute.io/identifier` annotation, which the statement converter
// sets and which kubectl apply and server-side apply keep like any other annotation. Identity never
// changes: objects, references and graph entries stay keyed by resource name.
import { NAME_PATTERN } from './common.js';
import { identifierToName, nameToIdentifier, type NameResult } from './names.js';

/** The identifier a statement wrote for this object, as it wrote it. */
export const IDENTIFIER_ANNOTATION = 'streamroute.io/identifier';

const NAME = new RegExp(NAME_PATTERN);

/** The part of an object this needs: also fits documents that are not valid objects. */
interface Named {
  metadata?: { name?: unknown; annotations?: unknown } | undefined;
}

function annotationOf(object: Named): unknown {
  const annotations = object.metadata?.annotations;
  return typeof annotations === 'object' && annotations !== null
    ? (annotations as Record<string, unknown>)[IDENTIFIER_ANNOTATION]
    : undefined;
}

/**
 * The identifier a statement wrote for this object, when the annotation is there and names it: it must
 * map to the object's own name (a copied or renamed object's stale annotation does not count).
 */
export function statementIdentifier(object: Named): string | undefined {
  const written = annotationOf(object);
  const name = object.metadata?.name;
  if (typeof written !== 'string' || typeof name !== 'string') return undefined;
  // The compiler asks about every object many times: the answer is kept with the metadata it was
  // worked out from, and used again only while its name and annotation are still those.
  const metadata = object.metadata as object;
  const known = ANSWERS.get(metadata);
  if (known !== undefined && known.name === name && known.written === written) return known.answer;
  const mapped = identifierToName(written);
  const answer = mapped.ok && mapped.name === name ? written : undefined;
  ANSWERS.set(metadata, { name, written, answer });
  return answer;
}

const ANSWERS = new WeakMap<object, { name: string; written: string; answer: string | undefined }>();

/** Why the annotation does not count (SR1019), or undefined when it is absent or fits. */
export function identifierAnnotationProblem(object: Named): string | undefined {
  const written = annotationOf(object);
  if (written === undefined || statementIdentifier(object) !== undefined) return undefined;
  const name = String(object.metadata?.name);
  if (typeof written !== 'string') return `annotation ${IDENTIFIER_ANNOTATION} must be a string`;
  const mapped = identifierToName(written);
  const why = mapped.ok ? `it is the identifier of ${mapped.name}` : mapped.reason;
  return `annotation ${IDENTIFIER_ANNOTATION}: ${JSON.stringify(written)} does not name ${name} (${why}), so the object is shown as ${name}; remove the annotation or set it to the identifier of ${name}`;
}

/** How people see the object: the identifier its statement wrote, else its resource name. */
export function displayName(object: Named): string {
  return statementIdentifier(object) ?? String(object.metadata?.name);
}

/** How a statement writes the object's name: its typed identifier, else the identifier of its name. */
export function identifierOf(object: Named): string {
  return statementIdentifier(object) ?? nameToIdentifier(String(object.metadata?.name));
}

/**
 * A name given to a command or to DESCRIBE / SHOW CREATE, which only name an object that exists: a
 * resource name (`orders-in`) as it is, or a statement identifier (`Orders_In`) mapped to one.
 */
export function nameFromEither(text: string): NameResult {
  if (NAME.test(text) && text.length <= 63) return { ok: true, name: text };
  const mapped = identifierToName(text);
  if (mapped.ok) return mapped;
  return { ok: false, reason: `${mapped.reason}, or a resource name (lower case, digits and -)` };
}

/** The display names of a set of objects: one name per object, whoever refers to it. */
export class DisplayNames {
  readonly #names = new Map<string, string>();
  readonly #fromStatements = new Set<string>();

  constructor(objects: Iterable<Named & { kind?: unknown }> = []) {
    for (const object of objects) this.add(object);
  }

  add(object: Named & { kind?: unknown }): void {
    const key = `${String(object.kind)}/${String(object.metadata?.name)}`;
    const identifier = statementIdentifier(object);
    if (identifier !== undefined) this.#fromStatements.add(key);
    this.#names.set(key, identifier ?? String(object.metadata?.name));
  }

  /**
   * The object's display name. An object that is not there is shown as its referrer would write it: a
   * statement's reference by its identifier (`no_such_schema`, lower case, since the object that would
   * carry the spelling does not exist), a YAML reference by the name it holds.
   */
  of(kind: string, name: string, referrer?: Named & { kind?: unknown }): string {
    const known = this.#names.get(`${kind}/${name}`);
    if (known !== undefined) return known;
    return referrer !== undefined && statementIdentifier(referrer) !== undefined
      ? nameToIdentifier(name)
      : name;
  }

  /**
   * How a statement writes a reference to the object: the identifier its own statement wrote, else the
   * identifier of its name (statements cannot hold `-`).
   */
  identifier(kind: string, name: string): string {
    return this.fromStatement(kind, name) ? this.of(kind, name) : nameToIdentifier(name);
  }

  /** Whether the object is known and came from a statement. */
  fromStatement(kind: string, name: string): boolean {
    return this.#fromStatements.has(`${kind}/${name}`);
  }
}
