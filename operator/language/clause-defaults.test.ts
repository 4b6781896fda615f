// The clauses a statement may leave out (clause-defaults.ts): left out, each gives the same object as
// written; the canonical printer still writes each one; docs/language.md lists each one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDENTIFIER_ANNOTATION, identifierOf } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import { DEFAULT_CLAUSE_NAMES, DEFAULT_CLAUSES } from './clause-defaults.js';
import { statementsToObjects } from './convert.js';
import { KIND_EXAMPLES } from './example-objects.js';
import { parseScript } from './parse.js';
import { printObject } from './print.js';

const LANGUAGE_MD = join(import.meta.dirname, '..', '..', 'docs', 'language.md');

function objectsOf(text: string): GraphObject[] {
  const parsed = parseScript(text, 'short.sql');
  const converted = statementsToObjects(parsed.statements, {});
  const errors = [...parsed.diagnostics, ...converted.diagnostics].filter((d) => d.severity === 'error');
  assert.deepEqual(errors.map(formatDiagnostic), [], text);
  return converted.objects;
}

/**
 * Every example object as a statement declares it (with the identifier it writes, decision 0025), its
 * routes' error policies set to LOG so each default is there to leave out.
 */
const EXAMPLES: GraphObject[] = Object.values(KIND_EXAMPLES).map((object) => {
  const spec = structuredClone(object.spec) as Record<string, unknown>;
  if (Array.isArray(spec.routes)) {
    spec.routes = spec.routes.map((route: object) => ({ ...route, onMessageError: { action: 'LOG' } }));
  }
  if (object.kind === 'Emitter') spec.onMessageError = { action: 'LOG' };
  const annotations = { [IDENTIFIER_ANNOTATION]: identifierOf(object) };
  return { ...object, metadata: { ...object.metadata, annotations }, spec } as GraphObject;
});

describe('clauses that may be left out', () => {
  for (const name of DEFAULT_CLAUSE_NAMES) {
    const { clause, in: where } = DEFAULT_CLAUSES[name];
    it(`${clause} (${where}): left out, the statement declares the same object`, () => {
      let shortened = 0;
      for (const object of EXAMPLES) {
        const full = printObject(object);
        const short = printObject(object, { leaveOut: [name] });
        if (short === full) continue; // the object has no such clause

        shortened++;
        assert.deepEqual(objectsOf(short), [object], `short form:\n${short}`);
        assert.deepEqual(objectsOf(short), objectsOf(full));
      }
      assert.ok(shortened > 0, `some example writes ${clause}`);
    });
  }

  it('every clause at once', () => {
    for (const object of EXAMPLES) {
      const short = printObject(object, { leaveOut: DEFAULT_CLAUSE_NAMES });
      assert.deepEqual(objectsOf(short), [object], `short form:\n${short}`);
    }
  });

  it('the short forms a user writes, against their full forms', () => {
    const PAIRS: [string, string][] = [
      ['CREATE WIRE SCHEMA w (a string)', 'CREATE WIRE JSON SCHEMA w MODE STRICT (a string)'],
      ['CREATE WIRE JSON SCHEMA w (a string)', 'CREATE WIRE SCHEMA w MODE STRICT (a string)'],
      ['CREATE CODEC c FROM WIRE SCHEMA w TO SCHEMA s', 'CREATE CODEC c FROM WIRE JSON SCHEMA w TO SCHEMA s'],
      ['CREATE RELAY r SCHEMA s', 'CREATE RELAY r SCHEMA s UNBRANCHED'],
      ["CREATE ENDPOINT e ON v PATH '/x'", "CREATE ENDPOINT e ON v PATH '/x' TYPE HTTP"],
      [
        "CREATE CLIENT c MOUNT r VERSION 2 CONFIG { 'protocol' = 'udp', 'addr' = 'h:1' }",
        "CREATE CLIENT c TYPE SYSLOG MOUNT r VERSION 2 CONFIG { 'protocol' = 'udp', 'addr' = 'h:1' }",
      ],
      [
        'CREATE HTTP ENDPOINT INGESTOR i FROM e ON QUIESCE DROP DECODE USING c TO r SET a = input.a',
        `CREATE HTTP ENDPOINT INGESTOR i FROM e MODE NO ACK ON QUIESCE DROP DECODE USING c
           TO r SET a = input.a UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
      ],
      [
        'CREATE SYSLOG LISTENER INGESTOR i FROM c ON QUIESCE SUSPEND DECODE USING s TO r INHERIT ALL TO q INHERIT ALL',
        `CREATE SYSLOG LISTENER INGESTOR i FROM c MODE NO_ACK ON QUIESCE SUSPEND DECODE USING s
           TO r INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG TO q INHERIT ALL UNBRANCHED ON GENERAL ERROR LOG`,
      ],
      [
        `CREATE CORRELATOR k LEFT FROM a RIGHT FROM b CORRELATE WHERE left.x = right.x MATCH LATEST MAX TIME 1s
           ON CORRELATION TIMEOUT DROP, DROP TO z SET x = left.x`,
        `CREATE CORRELATOR k LEFT FROM a RIGHT FROM b CORRELATE WHERE left.x = right.x MATCH LATEST MAX TIME 1s
           ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED TO z SET x = left.x FLUSH IMMEDIATE ON MESSAGE ERROR LOG`,
      ],
      [
        `CREATE TOPIC INGESTOR t FROM k TOPIC 't' GROUP 'g' START FROM LATEST MODE ACK ON QUIESCE DROP
           DECODE USING c TO r INHERIT ALL`,
        `CREATE TOPIC INGESTOR t FROM k TOPIC 't' GROUP 'g' START FROM LATEST MODE ACK ON QUIESCE DROP
           DECODE USING c TO r INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
      ],
      [
        "CREATE EMITTER o FROM r TO KAFKA k TOPIC 't' MODE ACK RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING s",
        `CREATE EMITTER o FROM r TO KAFKA k TOPIC 't' MODE ACK RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING s
           FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
      ],
      [
        'CREATE EMITTER o FROM r TO SYSLOG c RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING s',
        `CREATE EMITTER o FROM r TO SYSLOG c MODE NO ACK RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING s
           FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
      ],
    ];
    for (const [short, full] of PAIRS) {
      const objects = objectsOf(full);
      assert.equal(objects.length, 1, full);
      assert.deepEqual(objectsOf(short), objects, short);
    }
  });

  it('docs/language.md lists every one in its table', () => {
    const text = readFileSync(LANGUAGE_MD, 'utf8');
    const section = text.slice(text.indexOf('## Clauses you may leave out'));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    for (const { clause, in: where } of Object.values(DEFAULT_CLAUSES)) {
      assert.ok(
        rows.some((row) => row.startsWith(`| \`${clause}\` | ${where} |`)),
        `a row for ${clause} in ${where}`,
      );
    }
  });
});
