// SYSLOG is a reserved keyword for the predefined singleton wire schema (docs/language.md, "Wire schemas"):
// it has no user-defined name and no create, show-create, alter or drop lifecycle, and a codec uses it as
// `FROM SYSLOG`. So no wire schema is called syslog, in statements (resolve-statement.ts) or in YAML
// (yaml-input.ts), and the canonical printer never has to print one. SR1002, at the name.
import type { GraphObject } from '../api/index.js';

/** The resource name the keyword would map to. */
const SYSLOG = 'syslog';

const PREFIX = 'SYSLOG is the predefined syslog wire schema';

/** What a statement does with a wire schema it names. */
export type WireSchemaUse = 'create' | 'alter' | 'drop' | 'show-create' | 'reference';

const MESSAGES: Record<WireSchemaUse, string> = {
  create: `${PREFIX} and cannot be declared`,
  alter: `${PREFIX} and cannot be altered`,
  drop: `${PREFIX} and cannot be dropped`,
  'show-create': `${PREFIX} and has no CREATE statement to show`,
  reference: `${PREFIX}, not a WIRE JSON SCHEMA: write CREATE CODEC … FROM SYSLOG TO SCHEMA …`,
};

/** Why a wire schema of this (resource) name cannot be used this way, or undefined when it can. */
export function reservedWireSchema(name: string, use: WireSchemaUse): string | undefined {
  return name === SYSLOG ? MESSAGES[use] : undefined;
}

/** The fields of an object that name the SYSLOG wire schema, with the message for each. */
export function reservedNamesOf(object: GraphObject): { path: string; message: string }[] {
  const found: { path: string; message: string }[] = [];
  const add = (path: string, message: string | undefined) => {
    if (message !== undefined) found.push({ path, message });
  };
  if (object.kind === 'WireSchema') add('metadata.name', reservedWireSchema(object.metadata.name, 'create'));
  if (object.kind === 'Codec' && object.spec.wireSchema !== undefined) {
    add('spec.wireSchema', reservedWireSchema(object.spec.wireSchema, 'reference'));
  }
  return found;
}
