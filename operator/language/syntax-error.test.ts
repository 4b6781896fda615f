import assert from 'node:assert/strict';
import { parseScript } from './parse.js';
import { foundAt, joinWords } from './syntax-error.js';

/** The one syntax error of a script, as `line:column message`. */
function syntaxError(text: string): string {
  const { diagnostics } = parseScript(text);
  assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
  const [diagnostic] = diagnostics;
  assert.equal(diagnostic?.code, 'SR1001');
  return `${diagnostic?.location?.line}:${diagnostic?.location?.column} ${diagnostic?.message}`;
}

const PROTOBUF_ORDER =
  "(a PROTOBUF codec's clauses come in this order: USING RESOURCE … VERSION …, CONFIG { … }, MESSAGE '…', TO SCHEMA …, WITH JAQ TRANSFORMATIONS …)";

describe('syntax errors read as words', () => {
  const CASES: [string, string][] = [
    ['CREATE CODEC c FORM JSON TO SCHEMA s', "1:16 found 'FORM' but expected FROM"],
    [
      'CREAT RELAY r SCHEMA s UNBRANCHED',
      "1:1 found 'CREAT' but expected a statement (CREATE, ALTER, DROP, SHOW, DESCRIBE, UPLOAD, BEGIN, COMMIT or ROLLBACK)",
    ],
    [
      'CREATE THING x',
      "1:8 found 'THING' but expected OR REPLACE, IF NOT EXISTS or an object kind (SCHEMA, WIRE JSON SCHEMA, CODEC, RELAY, CLIENT, … INGESTOR, EMITTER, …)",
    ],
    ['CREATE RESOURCE a\nCREATE RESOURCE b', "2:1 found 'CREATE' but expected ;"],
    ['CREATE RELAY r SCHEMA', '1:22 found end of input but expected name'],
    ['CREATE SCHEMA s (a STRING', "1:26 found end of input but expected OPTIONAL, SENSITIVE, ',' or ')'"],
    [
      'CREATE SCHEMA s (a INT)',
      "1:20 found 'INT' but expected field type (STRING, I64, U8, DATETIME, BOOL, I32, U16, U32, U64, F64, BYTES)",
    ],
    ['CREATE WIRE JSON SCHEMA w MODE LOOSE (a string)', "1:32 found 'LOOSE' but expected STRICT"],
    [
      'CREATE CODEC c FROM CSV TO SCHEMA s',
      "1:21 found 'CSV' but expected WIRE, PROTOBUF, format (JSON, YAML, TOML, XML, CBOR) or SYSLOG",
    ],
    [
      "CREATE CODEC p FROM PROTOBUF USING RESOURCE r VERSION 1 MESSAGE 'a.B' CONFIG { 'file' = 'a' } TO SCHEMA s",
      `1:57 found 'MESSAGE' but expected CONFIG { … } ${PROTOBUF_ORDER}`,
    ],
    [
      "CREATE CODEC p FROM PROTOBUF CONFIG { 'file' = 'a' } USING RESOURCE r VERSION 1",
      `1:30 found 'CONFIG' but expected USING RESOURCE … VERSION … ${PROTOBUF_ORDER}`,
    ],
    [
      "CREATE CODEC p FROM PROTOBUF USING RESOURCE r VERSION 1 CONFIG { 'file' = 'a' } MESSAGE 'a.B' WITH JAQ TRANSFORMATIONS ON INGESTION '.' TO SCHEMA s",
      `1:95 found 'WITH' but expected TO ${PROTOBUF_ORDER}`,
    ],
    ['CREATE RELAY r SCHEMA s UNBRANCHED TO x', "1:36 found 'TO' but expected ;"],
    [
      'CREATE JUNCTION j FROM a TO b SET x = input.a FLUSHH IMMEDIATE ON MESSAGE ERROR LOG',
      "1:47 found 'FLUSHH' but expected an operator, ',', UNBRANCHED, FLUSH, ON MESSAGE ERROR, TO, ON GENERAL ERROR or ;",
    ],
    // Clauses that may be left out are listed by their words, and ON tells which clause it starts.
    [
      'CREATE HTTP ENDPOINT INGESTOR i FROM e QUIESCE DROP',
      "1:40 found 'QUIESCE' but expected MODE or ON QUIESCE",
    ],
    [
      'CREATE EMITTER o FROM r TO SYSLOG c RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING c ON ERROR LOG',
      "1:86 found 'ERROR' but expected MESSAGE or GENERAL",
    ],
    [
      'CREATE EMITTER o FROM r TO SYSLOG c RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING c LOG',
      "1:83 found 'LOG' but expected ALLOW, BATCH, FLUSH, ON MESSAGE ERROR, ON GENERAL ERROR or ;",
    ],
    ['CREATE RELAY r SCHEMA s BRANCHED', "1:25 found 'BRANCHED' but expected UNBRANCHED or ;"],
    ["CREATE ENDPOINT e ON v PATH '/' TYPE GRPC", "1:38 found 'GRPC' but expected HTTP"],
    [
      'CREATE JUNCTION j FROM a TO b SET x = FLUSH IMMEDIATE ON MESSAGE ERROR LOG',
      "1:39 found 'FLUSH' but expected an expression (a value such as 'text', 42 or TRUE, a field such as input.name, or a call)",
    ],
    [
      'CREATE JUNCTION j FROM a TO b INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR IGNORE',
      "1:76 found 'IGNORE' but expected LOG or SEND",
    ],
    [
      'SHOW THINGS',
      "1:6 found 'THINGS' but expected CREATE or what to show (SCHEMAS, WIRE SCHEMAS, CODECS, RELAYS, INGESTORS, …)",
    ],
    ['DESCRIBE RELAY r', "1:10 found 'RELAY' but expected INGESTOR or EMITTER"],
    ['CREATE ENDPOINT e ON v PATH /orders TYPE HTTP', "1:29 found '/' but expected string ('…')"],
    [
      "CREATE CLIENT c TYPE SYSLOG CONFIG { 'protocol' = udp }",
      "1:51 found 'udp' but expected string ('…') or number",
    ],
    [
      'CREATE CODEC c FROM JSON TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION .foo',
      "1:76 found '.' but expected program ('…' or $jaq$…$jaq$)",
    ],
    [
      'CREATE CORRELATOR c LEFT FROM a RIGHT FROM b CORRELATE WHERE TRUE MATCH FIRST',
      "1:73 found 'FIRST' but expected EARLIEST or LATEST",
    ],
    [
      "CREATE ENDPOINT e ON v PATH '/x TYPE HTTP",
      "1:29 this string has no closing ' (write '' for a quote inside a string)",
    ],
    ['BEGIN; $jaq$ x', '1:8 this $jaq$ program has no closing $jaq$'],
    ['BEGIN /* x', '1:7 this /* comment has no closing */'],
  ];
  for (const [text, expected] of CASES) {
    it(text.slice(0, 90), () => assert.equal(syntaxError(text), expected));
  }

  it('shows a no-break space by its code point', () => {
    assert.equal(
      syntaxError('CREATE\u00a0SCHEMA s (a STRING)'),
      '1:7 found U+00A0 but expected OR REPLACE, IF NOT EXISTS or an object kind (SCHEMA, WIRE JSON SCHEMA, CODEC, RELAY, CLIENT, … INGESTOR, EMITTER, …)',
    );
  });

  it('gives the file when there is one', () => {
    const { diagnostics } = parseScript('\n\n  SHOW;', 'graph.sql');
    assert.deepEqual(diagnostics[0]?.location, { file: 'graph.sql', line: 3, column: 7 });
  });
});

describe('foundAt', () => {
  const CASES: [string, number, string][] = [
    ['abc', 3, 'end of input'],
    ['FORM JSON', 0, "'FORM'"],
    ["'a string' x", 0, "'a string'"],
    ["'a very long string that goes on and on'", 0, "'a very long string tha…'"],
    ['$jaq$ .', 0, "'$jaq$'"],
    ['<= 1', 0, "'<='"],
    ['\n', 0, '"\\n"'],
    [' x', 0, '" "'],
    ['é', 0, "'é'"],
    // Characters that look like a blank, or like nothing, by their code point.
    ['\u00a0SCHEMA', 0, 'U+00A0'],
    ['\u200b', 0, 'U+200B'],
    ['\u3000', 0, 'U+3000'],
    ['\u0000', 0, 'U+0000'],
  ];
  for (const [text, offset, expected] of CASES) {
    it(`${JSON.stringify(text)} at ${offset}`, () => assert.equal(foundAt(text, offset), expected));
  }
});

describe('joinWords', () => {
  it('joins with commas and a final or', () => {
    assert.equal(joinWords([]), '');
    assert.equal(joinWords(['A']), 'A');
    assert.equal(joinWords(['A', 'B']), 'A or B');
    assert.equal(joinWords(['A', 'B', 'C']), 'A, B or C');
  });
});
