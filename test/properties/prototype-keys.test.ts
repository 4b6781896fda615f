// Keys and names taken from user input are data, never JavaScript: every name of Object.prototype
// (`constructor`, `__proto__`, `toString`, `hasOwnProperty`, …) put as a key at every level of every kind,
// and `constructor` (the one that is also a valid resource name) as the name of every kind, must give
// diagnostics like any other unknown key or name — never a TypeError, never a different verdict.
import assert from 'node:assert/strict';
import { checkGraphObject } from '../../operator/api/validate-object.js';
import { compileDomain, prepareCompileAll } from '../../operator/compiler/index.js';
import { KIND_EXAMPLES } from '../../operator/language/example-objects.js';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const DOMAIN = 'proto-keys';

const examples = (): Record<string, unknown>[] =>
  Object.values(KIND_EXAMPLES).map((object) => ({
    ...(JSON.parse(JSON.stringify(object)) as Record<string, unknown>),
    metadata: { name: object.metadata.name, namespace: DOMAIN },
  }));

/** Every plain object inside `value` (itself included), with its path. */
function objectsIn(value: unknown, path = ''): [string, Record<string, unknown>][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => objectsIn(item, `${path}[${index}]`));
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  return [
    [path, record],
    ...Object.entries(record).flatMap(([key, item]) => objectsIn(item, path === '' ? key : `${path}.${key}`)),
  ];
}

/** An own property, even for `__proto__` (an assignment would set the prototype instead). */
function putOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Every string leaf equal to `from` becomes `to` (references follow a rename). */
function renameEverywhere(value: unknown, from: string, to: string): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item) => renameEverywhere(item, from, to));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameEverywhere(v, from, to)]));
}

const summary = (objects: unknown[]) =>
  compileDomain(objects, { domain: DOMAIN })
    .diagnostics.map((d) => `${d.severity} ${d.code}`)
    .sort();

describe('user keys and names that are names of Object.prototype', function () {
  this.timeout(120_000);
  before(() => prepareCompileAll());

  it('are unknown fields at every level of every kind: validated and compiled with diagnostics, never a throw', () => {
    let cases = 0;
    for (const [index, original] of examples().entries()) {
      for (const [path] of objectsIn(original)) {
        for (const key of PROTOTYPE_NAMES) {
          for (const injected of [1, { a: 1 }]) {
            const objects = examples();
            const target = objectsIn(objects[index]).find(([at]) => at === path)![1];
            putOwn(target, key, injected);
            const where = `${String(original['kind'])} ${path || '(top)'}.${key} = ${JSON.stringify(injected)}`;
            assert.doesNotThrow(() => checkGraphObject(objects[index]), where);
            let diagnostics: string[] = [];
            assert.doesNotThrow(() => (diagnostics = summary(objects)), where);
            assert.ok(
              diagnostics.some((line) => line.startsWith('error')),
              `${where}: an unknown key is an error`,
            );
            cases++;
          }
        }
      }
    }
    assert.ok(cases > 1000, `${cases} cases`);
  });

  it('as the name of any kind, change nothing but the name', () => {
    const baseline = summary(examples());
    for (const object of examples()) {
      const name = (object['metadata'] as { name: string }).name;
      const renamed = examples().map((each) => renameEverywhere(each, name, 'constructor'));
      let diagnostics: string[] = [];
      assert.doesNotThrow(
        () => (diagnostics = summary(renamed)),
        `${String(object['kind'])} named constructor`,
      );
      assert.deepEqual(diagnostics, baseline, `${String(object['kind'])} named constructor`);
    }
  });
});
