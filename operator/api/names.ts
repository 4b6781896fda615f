// Statement identifiers ↔ Kubernetes object names: lower-case, `_` becomes `-`
// (docs/language.md, "Names and identifiers"). Reversible because identifiers never contain `-`.

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;
const MAX_NAME_LENGTH = 63;

export type NameResult = { ok: true; name: string } | { ok: false; reason: string };

export function identifierToName(identifier: string): NameResult {
  if (!IDENTIFIER.test(identifier)) {
    return { ok: false, reason: 'an identifier starts with a letter and holds only letters, digits and _' };
  }
  if (identifier.endsWith('_')) {
    return { ok: false, reason: 'an identifier cannot end with _ (object names cannot end with -)' };
  }
  const name = identifier.toLowerCase().replaceAll('_', '-');
  if (name.length > MAX_NAME_LENGTH) {
    return { ok: false, reason: `an identifier is at most ${MAX_NAME_LENGTH} characters` };
  }
  return { ok: true, name };
}

export function nameToIdentifier(name: string): string {
  return name.replaceAll('-', '_');
}
