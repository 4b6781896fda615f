// `validate` and `compile` over files: every document reaches the compiler, and a fault inside an
// expression is located where it is written.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Output } from '../../client/report.js';
import { runValidate } from './compile.js';

const scratch = mkdtempSync(join(tmpdir(), 'streamroute-compile-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function validate(name: string, text: string, domain = 'default'): Promise<string[]> {
  const path = join(scratch, name);
  writeFileSync(path, text);
  const lines: string[] = [];
  const output: Output = { out: () => undefined, err: (line) => lines.push(line.replace(`${scratch}/`, '')) };
  await runValidate([path], { domain, resource: [] }, output);
  return lines;
}

describe('validate: one path for every document', () => {
  it('an object that fails its own checks still reaches the compiler: its dependents wait for it', async () => {
    const lines = await validate(
      'dep.yaml',
      `apiVersion: streamroute.io/v1alpha1
kind: Schema
metadata: {name: s}
spec: {fields: [{name: a, type: STRNG}]}
---
apiVersion: streamroute.io/v1alpha1
kind: Relay
metadata: {name: r}
spec: {schema: s, branching: UNBRANCHED}
`,
    );
    assert.deepEqual(lines, [
      'dep.yaml:4:27: error SR1012: Schema s spec.fields[0].type: unsupported value "STRNG": expected one of STRING, BOOL, U8, U16, U32, U64, I32, I64, F64, DATETIME, BYTES',
      'dep.yaml:9:8: error SR2061: Relay r spec.schema: Relay r waits for Schema s, which is rejected; it is used once Schema s is fixed',
      '2 errors',
    ]);
  });

  it('a rule or literal failure does not hide the object’s other errors, each reported once', async () => {
    const lines = await validate(
      'co.sql',
      `CREATE SCHEMA a (id STRING, v I64);
CREATE RELAY ra SCHEMA a UNBRANCHED;
CREATE CORRELATOR c LEFT FROM ra RIGHT FROM ra CORRELATE WHERE left.v + right.v
  MATCH EARLIEST MAX TIME 0s ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED
  TO ra INHERIT ALL SET id = left.id FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
`,
    );
    assert.deepEqual(
      lines.map((line) => line.replace(/: Correlator c .*/, '')),
      [
        'co.sql:3:64: error SR2005',
        'co.sql:4:27: error SR1003',
        'co.sql:5:3: error SR2004',
        'co.sql:5:9: error SR2020',
        '4 errors',
      ],
    );
  });

  it('locates a fault inside a statement’s expression at the fault', async () => {
    const lines = await validate(
      'sp.sql',
      `CREATE SCHEMA s (id STRING);
CREATE RELAY r SCHEMA s UNBRANCHED;
CREATE RELAY q SCHEMA s UNBRANCHED;
CREATE JUNCTION j FROM r TO q
  SET id = lower(
      input.id) ||
      upper(input.nope)
  FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
`,
    );
    assert.match(lines[0] ?? '', /^sp\.sql:7:13: error SR2003: .* input\.nope:/);
  });

  it('leaves out objects of another domain with a warning', async () => {
    const lines = await validate(
      'ns.yaml',
      `apiVersion: streamroute.io/v1alpha1
kind: Schema
metadata: {name: s, namespace: two}
spec: {fields: [{name: a, type: STRING}]}
`,
      'one',
    );
    assert.deepEqual(lines, [
      'ns.yaml:3:21: warning SR1017: Schema s metadata.namespace: Schema s is in namespace "two", not in domain one, so it is left out; compile that domain to check it',
    ]);
  });
});
