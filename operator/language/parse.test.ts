import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseScript } from './parse.js';

import { one, specOf } from '../../test/fixtures/parse-one.js';

describe('parseScript: statements without a resource form', () => {
  const CASES: { text: string; statement: object }[] = [
    {
      text: 'DROP RELAY r',
      statement: { type: 'drop', kind: 'Relay', identifier: 'r', name: 'r', ifExists: false },
    },
    {
      text: 'DROP WIRE JSON SCHEMA IF EXISTS order_wire',
      statement: {
        type: 'drop',
        kind: 'WireSchema',
        identifier: 'order_wire',
        name: 'order-wire',
        ifExists: true,
      },
    },
    {
      text: 'DROP INGESTOR i',
      statement: { type: 'drop', kind: 'Ingestor', identifier: 'i', name: 'i', ifExists: false },
    },
    {
      text: 'DROP SYSLOG LISTENER INGESTOR i',
      statement: { type: 'drop', kind: 'SyslogIngestor', identifier: 'i', name: 'i', ifExists: false },
    },
    {
      text: 'DROP HTTP ENDPOINT INGESTOR i',
      statement: { type: 'drop', kind: 'HttpIngestor', identifier: 'i', name: 'i', ifExists: false },
    },
    {
      text: 'DROP TOPIC INGESTOR i',
      statement: { type: 'drop', kind: 'TopicIngestor', identifier: 'i', name: 'i', ifExists: false },
    },
    {
      text: 'DROP CLIENT c',
      statement: { type: 'drop', kind: 'Client', identifier: 'c', name: 'c', ifExists: false },
    },
    {
      text: 'SHOW CREATE CLIENT c',
      statement: { type: 'show-create', kind: 'Client', identifier: 'c', name: 'c' },
    },
    { text: 'SHOW SCHEMAS', statement: { type: 'show', what: 'Schema' } },
    { text: 'SHOW WIRE SCHEMAS', statement: { type: 'show', what: 'WireSchema' } },
    { text: 'SHOW WIRE JSON SCHEMAS', statement: { type: 'show', what: 'WireSchema' } },
    { text: 'SHOW CODECS', statement: { type: 'show', what: 'Codec' } },
    { text: 'SHOW RESOURCES', statement: { type: 'show', what: 'Resource' } },
    { text: 'SHOW RELAYS', statement: { type: 'show', what: 'Relay' } },
    { text: 'SHOW VHOSTS', statement: { type: 'show', what: 'Vhost' } },
    { text: 'SHOW ENDPOINTS', statement: { type: 'show', what: 'Endpoint' } },
    { text: 'SHOW CLIENTS', statement: { type: 'show', what: 'Client' } },
    { text: 'SHOW INGESTORS', statement: { type: 'show', what: 'Ingestor' } },
    { text: 'SHOW JUNCTIONS', statement: { type: 'show', what: 'Junction' } },
    { text: 'SHOW CORRELATORS', statement: { type: 'show', what: 'Correlator' } },
    { text: 'SHOW EMITTERS', statement: { type: 'show', what: 'Emitter' } },
    {
      text: 'SHOW CREATE CODEC orders_json',
      statement: { type: 'show-create', kind: 'Codec', identifier: 'orders_json', name: 'orders-json' },
    },
    {
      text: 'SHOW CREATE INGESTOR i',
      statement: { type: 'show-create', kind: 'Ingestor', identifier: 'i', name: 'i' },
    },
    {
      text: 'DESCRIBE INGESTOR i',
      statement: { type: 'describe', kind: 'Ingestor', identifier: 'i', name: 'i' },
    },
    {
      text: 'DESCRIBE EMITTER e',
      statement: { type: 'describe', kind: 'Emitter', identifier: 'e', name: 'e' },
    },
    { text: 'BEGIN', statement: { type: 'begin' } },
    { text: 'COMMIT', statement: { type: 'commit' } },
    { text: 'ROLLBACK', statement: { type: 'rollback' } },
    {
      text: "UPLOAD RESOURCE order_protos VERSION './protos/it''s'",
      statement: {
        type: 'upload-resource',
        identifier: 'order_protos',
        name: 'order-protos',
        directory: "./protos/it's",
      },
    },
  ];
  for (const { text, statement } of CASES) {
    it(text, () => {
      assert.deepEqual(one(text), { ...statement, location: { line: 1, column: 1 } });
    });
  }
});

describe('parseScript: lexical rules', () => {
  it('reads keywords in any case, keeps field case and lower-cases names', () => {
    const lower = specOf(
      "create codec Orders_JSON from json to schema Orders with jaq transformations on ingestion '.'",
    );
    assert.deepEqual(lower, {
      kind: 'Codec',
      name: 'orders-json',
      spec: { from: 'JSON', schema: 'orders', jaq: { ingestion: '.' } },
    });
    const mixed = specOf('CrEaTe ScHeMa s (OrderId string OPTIONAL, Amount i64 Sensitive)');
    assert.deepEqual(mixed.spec, {
      fields: [
        { name: 'OrderId', type: 'STRING', optional: true },
        { name: 'Amount', type: 'I64', sensitive: true },
      ],
    });
  });

  it('skips -- and /* */ comments anywhere, including ones holding ; and quotes', () => {
    const { statements, diagnostics } = parseScript(`
      -- a schema; with 'quotes'
      CREATE /* inline; */ RELAY r -- trailing ;
        SCHEMA s /* multi
        line ' */ UNBRANCHED;
      /* only a comment */ ;
      -- the end`);
    assert.deepEqual(diagnostics, []);
    assert.equal(statements.length, 1);
  });

  it('keeps ; inside strings and $jaq$ programs', () => {
    const spec = specOf(
      "CREATE CODEC c FROM JSON TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$ .a; -- not a comment $jaq$ ON EMITTING '.b; /* x */'",
    );
    assert.deepEqual((spec.spec as { jaq: unknown }).jaq, {
      ingestion: ' .a; -- not a comment ',
      emitting: '.b; /* x */',
    });
  });

  it('makes the last ; optional and accepts empty statements', () => {
    const { statements, diagnostics } = parseScript(';; BEGIN;;\nCOMMIT');
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      statements.map((statement) => statement.type),
      ['begin', 'commit'],
    );
  });

  it('parses an empty script to nothing', () => {
    assert.deepEqual(parseScript(''), { statements: [], diagnostics: [] });
    assert.deepEqual(parseScript('  -- nothing\n'), { statements: [], diagnostics: [] });
  });

  it('stores expressions as their trimmed text', () => {
    const { spec } = specOf(`CREATE JUNCTION j FROM a TO b SET x = coalesce( input.x ,
        'none' )   FLUSH IMMEDIATE ON MESSAGE ERROR LOG`);
    assert.deepEqual((spec as { routes: { set: unknown }[] }).routes[0]!.set, [
      { field: 'x', value: "coalesce( input.x ,\n        'none' )" },
    ]);
  });
});

describe('parseScript: locations', () => {
  const text = [
    '-- header',
    'CREATE HTTP ENDPOINT INGESTOR web FROM orders_ep MODE NO ACK',
    '  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json',
    '  TO orders INHERIT ALL, SET seen = now(), n = 1 FLUSH IMMEDIATE',
    '    ON MESSAGE ERROR SEND TO errors SET reason = error.message',
    '  ON GENERAL ERROR LOG;',
    "CREATE CLIENT c TYPE SYSLOG CONFIG { 'protocol' = 'tcp',",
    "  'addr' = 'h:514', 'framing' = 'octet-counting' }",
  ].join('\n');

  it('records where each field was written, relative to the object', () => {
    const { statements, diagnostics } = parseScript(text, 'graph.sql');
    assert.deepEqual(diagnostics, []);
    const [ingestor, client] = statements;
    assert.ok(ingestor?.type === 'create' && client?.type === 'create');
    const at = (statement: typeof ingestor, path: string) => {
      const location = statement.locations.get(path);
      return location && `${location.file}:${location.line}:${location.column}`;
    };
    assert.equal(at(ingestor, ''), 'graph.sql:2:1');
    assert.equal(at(ingestor, 'metadata.name'), 'graph.sql:2:31');
    assert.equal(at(ingestor, 'spec.endpoint'), 'graph.sql:2:40');
    assert.equal(at(ingestor, 'spec.quiesce'), 'graph.sql:3:3');
    assert.equal(at(ingestor, 'spec.quiesce.action'), 'graph.sql:3:14');
    assert.equal(at(ingestor, 'spec.quiesce.maxSize'), 'graph.sql:3:30');
    assert.equal(at(ingestor, 'spec.codec'), 'graph.sql:3:48');
    assert.equal(at(ingestor, 'spec.routes[0]'), 'graph.sql:4:3');
    assert.equal(at(ingestor, 'spec.routes[0].to'), 'graph.sql:4:6');
    assert.equal(at(ingestor, 'spec.routes[0].inheritAll'), 'graph.sql:4:13');
    assert.equal(at(ingestor, 'spec.routes[0].set[0]'), 'graph.sql:4:30');
    assert.equal(at(ingestor, 'spec.routes[0].set[1].field'), 'graph.sql:4:44');
    assert.equal(at(ingestor, 'spec.routes[0].set[1].value'), 'graph.sql:4:48');
    assert.equal(at(ingestor, 'spec.routes[0].onMessageError.relay'), 'graph.sql:5:30');
    assert.equal(at(ingestor, 'spec.routes[0].onMessageError.set[0].value'), 'graph.sql:5:50');
    assert.equal(at(ingestor, 'spec.onGeneralError'), 'graph.sql:6:3');
    assert.equal(at(client, 'spec.config'), 'graph.sql:7:29');
    assert.equal(at(client, 'spec.config.protocol'), 'graph.sql:7:51');
    assert.equal(at(client, 'spec.config.framing'), 'graph.sql:8:33');
  });
});

describe('parseScript: bad input gives diagnostics', () => {
  const CASES: { name: string; text: string; expected: string[] }[] = [
    {
      name: 'unknown statement keyword',
      text: 'CREAT RELAY r SCHEMA s UNBRANCHED',
      expected: ['1:1 SR1001'],
    },
    {
      name: 'misspelt keyword',
      text: 'CREATE CODEC c FORM JSON TO SCHEMA s',
      expected: ['1:16 SR1001'],
    },
    {
      name: 'protobuf clauses out of order',
      text: "CREATE CODEC p FROM PROTOBUF USING RESOURCE r VERSION 1 MESSAGE 'a.B' CONFIG { 'file' = 'a' } TO SCHEMA s",
      expected: ['1:57 SR1001'],
    },
    {
      name: 'bad duration',
      text: 'CREATE EMITTER e FROM r TO SYSLOG c MODE NO_ACK RETRY POLICY BACKOFF 30x MAX 0s ENCODE USING k FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG',
      expected: ['1:70 SR1003', '1:78 SR1003'],
    },
    {
      name: 'bad size',
      text: 'CREATE HTTP ENDPOINT INGESTOR i FROM e MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1.5MiB DECODE USING c MAX BODY SIZE 2mb TO r INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG',
      expected: ['1:79 SR1004', '1:115 SR1004'],
    },
    {
      name: 'identifiers that cannot become names',
      text: 'CREATE RELAY orders_ SCHEMA my-schema UNBRANCHED',
      expected: ['1:14 SR1002', '1:29 SR1002'],
    },
    {
      name: 'unknown, repeated and non-numeric CONFIG keys',
      text: "CREATE CLIENT c TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'adr' = 'x:1',\n 'protocol' = 'tcp', 'max_message_size' = '64k' }",
      expected: ['1:58 SR1005', '2:2 SR1016', '2:43 SR1006'],
    },
    {
      name: 'a Kafka password written inline (SR1020, at its key) and an unknown Kafka key',
      text: "CREATE CLIENT k TYPE KAFKA CONFIG { 'bootstrap_servers' = 'b:1', 'sasl_password' = 'x', 'acks' = 'all' }",
      expected: ['1:66 SR1020', '1:89 SR1005'],
    },
    {
      name: 'a client of an unknown TYPE',
      text: "CREATE CLIENT k TYPE RABBIT CONFIG { 'addr' = 'b:1' }",
      expected: ['1:22 SR1001'],
    },
    {
      name: 'an emitter TO KAFKA without its MODE, and one without its TOPIC',
      text: `CREATE EMITTER e FROM r TO KAFKA k TOPIC 't' RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING c;
CREATE EMITTER e FROM r TO KAFKA k MODE ACK RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING c`,
      expected: ['1:46 SR1001', '2:36 SR1001'],
    },
    {
      name: 'a topic ingestor without START FROM',
      text: "CREATE TOPIC INGESTOR t FROM k TOPIC 't' GROUP 'g' MODE ACK ON QUIESCE DROP DECODE USING c TO r INHERIT ALL",
      expected: ['1:52 SR1001'],
    },
    {
      name: 'unknown CONFIG key of a protobuf codec',
      text: "CREATE CODEC p FROM PROTOBUF USING RESOURCE r VERSION 1 CONFIG { 'file' = 'a', 'root' = 'b' } MESSAGE 'a.B' TO SCHEMA s",
      expected: ['1:80 SR1005'],
    },
    {
      name: 'unterminated string',
      text: "CREATE ENDPOINT e ON v PATH '/x TYPE HTTP;\nCOMMIT;",
      expected: ['1:29 SR1001'],
    },
    {
      name: 'unterminated $jaq$ program',
      text: 'CREATE CODEC c FROM JSON TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$ .',
      expected: ['1:76 SR1001'],
    },
    { name: 'unterminated comment', text: 'BEGIN; /* never closed', expected: ['1:8 SR1001'] },
    {
      name: 'two statements without ; between them',
      text: 'CREATE RESOURCE a\nCREATE RESOURCE b',
      expected: ['2:1 SR1001'],
    },
    { name: 'statement cut short', text: 'CREATE SCHEMA s (a STRING', expected: ['1:26 SR1001'] },
  ];
  for (const { name, text, expected } of CASES) {
    it(name, () => {
      const { diagnostics } = parseScript(text);
      assert.deepEqual(
        diagnostics.map((d) => `${d.location?.line}:${d.location?.column} ${d.code}`),
        expected,
      );
      for (const diagnostic of diagnostics) assert.equal(diagnostic.severity, 'error');
    });
  }

  it('refuses an inline Kafka password without repeating it, and keeps it out of the object', () => {
    const { statements, diagnostics } = parseScript(
      "CREATE CLIENT k TYPE KAFKA CONFIG { 'bootstrap_servers' = 'b:1', 'sasl_password' = 'hunter2' }",
    );
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.path]),
      [['SR1020', 'spec.config']],
    );
    assert.match(diagnostics[0]?.message ?? '', /'sasl_password_file' = '\{\{ <resource> \}\}\/<file>'/);
    assert.doesNotMatch(JSON.stringify({ statements, diagnostics }), /hunter2/);
  });

  it('reports the errors of every statement with line and column in the file', () => {
    const text = [
      'CREATE SCHEMA s (a STRING);',
      'CREATE RELAY r SCHEMA s UNBRANCH;',
      'CREATE RELAY ok SCHEMA s UNBRANCHED;',
      "CREATE ENDPOINT e ON v PATH '/x' TYPE FTP;",
      '  CREATE CORRELATOR c LEFT FROM a RIGHT FROM b CORRELATE WHERE left.k = right.k MATCH LATEST',
      '    MAX TIME 1.5s ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED',
      '    TO o SET k = left.k FLUSH IMMEDIATE ON MESSAGE ERROR LOG;',
      'SHOW THINGS',
    ].join('\n');
    const { statements, diagnostics } = parseScript(text, 'graph.sql');
    assert.deepEqual(
      diagnostics.map((d) => `${d.location?.file}:${d.location?.line}:${d.location?.column} ${d.code}`),
      ['graph.sql:2:25 SR1001', 'graph.sql:4:39 SR1001', 'graph.sql:6:14 SR1003', 'graph.sql:8:6 SR1001'],
    );
    // Statements with a syntax error are left out; the others, even with a bad value, are kept.
    assert.deepEqual(
      statements.map((statement) => ('name' in statement ? statement.name : statement.type)),
      ['s', 'ok', 'c'],
    );
  });

  it('says where a repeated CONFIG key was first given, also when another statement is broken', () => {
    for (const prefix of ['', 'CREATE BROKEN;\n']) {
      const { diagnostics } = parseScript(
        `${prefix}CREATE CLIENT c TYPE SYSLOG CONFIG {\n 'addr' = 'a:1', 'addr' = 'b:2' }`,
      );
      const line = prefix === '' ? 2 : 3;
      assert.equal(diagnostics.at(-1)?.message, `CONFIG key 'addr' is given twice (first at ${line}:2)`);
      assert.deepEqual(diagnostics.at(-1)?.location, { line, column: 18 });
    }
  });

  it('names the object and field in value diagnostics', () => {
    const { diagnostics } = parseScript(
      'CREATE CORRELATOR c LEFT FROM a RIGHT FROM b CORRELATE WHERE TRUE MATCH LATEST MAX TIME 0s ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED TO o SET k = 1 FLUSH IMMEDIATE ON MESSAGE ERROR LOG',
    );
    assert.equal(diagnostics.length, 1);
    assert.deepEqual(
      { ...diagnostics[0], message: undefined },
      {
        code: 'SR1003',
        severity: 'error',
        message: undefined,
        object: { kind: 'Correlator', name: 'c' },
        path: 'spec.maxTime',
        location: { line: 1, column: 89 },
      },
    );
  });

  it('names an object with a bad identifier as written (identifierToName gives it no name)', () => {
    const { diagnostics } = parseScript('CREATE RELAY Orders_ SCHEMA s UNBRANCHED');
    assert.deepEqual(diagnostics[0]?.object, { kind: 'Relay', name: 'Orders_' });
  });

  describe('SYSLOG is the predefined wire schema: declaring, naming or showing one is SR1002', () => {
    const CASES: [string, string, string][] = [
      ['CREATE WIRE JSON SCHEMA syslog MODE STRICT (a string)', '1:25', 'cannot be declared'],
      ['CREATE OR REPLACE WIRE JSON SCHEMA SysLog MODE STRICT (a string)', '1:36', 'cannot be declared'],
      ['ALTER WIRE JSON SCHEMA SYSLOG MODE STRICT (a string)', '1:24', 'cannot be altered'],
      ['DROP WIRE JSON SCHEMA IF EXISTS syslog', '1:33', 'cannot be dropped'],
      ['SHOW CREATE WIRE JSON SCHEMA SYSLOG', '1:30', 'has no CREATE statement to show'],
      ['CREATE CODEC c FROM WIRE JSON SCHEMA syslog TO SCHEMA s', '1:38', 'write CREATE CODEC … FROM SYSLOG'],
    ];
    for (const [text, where, message] of CASES) {
      it(text, () => {
        const { diagnostics } = parseScript(text);
        assert.deepEqual(
          diagnostics.map((d) => `${d.location?.line}:${d.location?.column} ${d.code}`),
          [`${where} SR1002`],
        );
        assert.ok(diagnostics[0]!.message.startsWith('SYSLOG is the predefined syslog wire schema'));
        assert.ok(diagnostics[0]!.message.includes(message), diagnostics[0]!.message);
      });
    }

    it('leaves other uses of the word alone', () => {
      const text =
        'CREATE CODEC syslog FROM SYSLOG TO SCHEMA syslog; CREATE RELAY syslog SCHEMA syslog UNBRANCHED; DROP CODEC syslog';
      assert.deepEqual(parseScript(text).diagnostics, []);
    });
  });

  describe('input nested too deeply to parse', () => {
    const deep = (levels: number) => `${'('.repeat(levels)}input.a${')'.repeat(levels)}`;
    const statement = (expression: string) =>
      `CREATE JUNCTION j FROM a TO b SET x = ${expression} FLUSH IMMEDIATE ON MESSAGE ERROR LOG`;

    it('is SR1001 at the first token of the statement, not where the one before ended', () => {
      const text = `CREATE RESOURCE a;\n-- deep\n\n  ${statement(deep(1000))};\nCREATE RESOURCE b;`;
      const { statements, diagnostics } = parseScript(text);
      assert.deepEqual(
        diagnostics.map((d) => `${d.location?.line}:${d.location?.column} ${d.code} ${d.message}`),
        ['4:3 SR1001 nested too deeply (at most 200 levels of parentheses, NOT and -)'],
      );
      assert.equal(statements.length, 2);
    });

    it('counts NOT and unary - chains and calls, and holds whatever the parser could manage', () => {
      for (const expression of [
        deep(201),
        `${'NOT '.repeat(20000)}TRUE`,
        `${'- '.repeat(20000)}1`,
        `${'lower('.repeat(300)}'a'${')'.repeat(300)}`,
      ]) {
        assert.deepEqual(
          parseScript(statement(expression)).diagnostics.map((d) => d.code),
          ['SR1001'],
          expression.slice(0, 20),
        );
      }
    });

    it('accepts nesting up to the limit', () => {
      assert.deepEqual(parseScript(statement(deep(199))).diagnostics, []);
      assert.deepEqual(parseScript(statement(`input.a${' - 1'.repeat(5000)}`)).diagnostics, []);
    });
  });

  it('reads a lone CR as a line end, so CR-only files get the right line numbers', () => {
    const text = 'CREATE RESOURCE a;\rCREATE RELAY r\r  SCHEMA s UNBRANCH;\r\nCREATE RESOURCE b;';
    const { diagnostics } = parseScript(text);
    assert.deepEqual(
      diagnostics.map((d) => `${d.location?.line}:${d.location?.column} ${d.code}`),
      ['3:12 SR1001'],
    );
  });

  it('reads unquoted hostnames as the Vhost pattern writes them: no _', () => {
    assert.deepEqual(parseScript('CREATE VHOST v a-b.example.com, 10.0.0.1').diagnostics, []);
    assert.deepEqual(
      parseScript('CREATE VHOST v my_host.example.com').diagnostics.map((d) => d.code),
      ['SR1001'],
    );
  });

  it('never throws, whatever the input', () => {
    const pieces = fc.constantFrom(
      'CREATE ',
      'RELAY ',
      'r ',
      'SCHEMA ',
      'UNBRANCHED',
      ';',
      "'",
      '$jaq$',
      '--',
      '/*',
      '*/',
      '\n',
      '(',
      ')',
      'TO ',
      'SET ',
      'x = ',
      'input.a',
      ', ',
      'CONFIG { ',
      "'addr' = 1",
      '}',
      '30s ',
      'é',
      '\u0000',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 30 }), (parts) => {
        const result = parseScript(parts.join(''));
        for (const diagnostic of result.diagnostics) {
          assert.ok(diagnostic.location !== undefined && diagnostic.location.line >= 1);
          assert.doesNotMatch(diagnostic.message, /\bat .*\.js:\d+/);
        }
      }),
      { numRuns: 500 },
    );
  });
});
