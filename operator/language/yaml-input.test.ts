import assert from 'node:assert/strict';
import { API_VERSION } from '../api/index.js';
import { warningsDuring } from '../../test/fixtures/yaml-object-keys.js';
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { Declarations } from './declarations.js';
import { loadYamlObjects } from './yaml-input.js';

const FILE = 'graph.yaml';

/** `CODE@LINE:COL` of each diagnostic, the shape most tests assert. */
function where(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code}@${d.location?.line ?? '?'}:${d.location?.column ?? '?'}`);
}

const relay = (name: string, extra = '') => `apiVersion: ${API_VERSION}
kind: Relay
metadata:
  name: ${name}${extra}
spec:
  schema: orders
  branching: UNBRANCHED
`;

const client = (config: string) => `apiVersion: ${API_VERSION}
kind: SyslogClient
metadata:
  name: syslog-in
spec:
  config:
${config}`;

describe('loadYamlObjects', () => {
  it('loads every document into an object', () => {
    const { objects, diagnostics } = loadYamlObjects(`${relay('a')}---\n${relay('b')}`, FILE);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      objects.map((object) => object.metadata.name),
      ['a', 'b'],
    );
    assert.deepEqual(objects[0]?.spec, { schema: 'orders', branching: 'UNBRANCHED' });
  });

  it('records a location for every node path', () => {
    const text = `apiVersion: ${API_VERSION}
kind: Junction
metadata:
  name: merge
spec:
  from: [a, b]
  routes:
    - to: out
      set:
        - field: x
          value: input.x
        - field: y
          value: upper(input.y)
      branching: UNBRANCHED
      flush: IMMEDIATE
      onMessageError: { action: LOG }
`;
    const { sourceMap, diagnostics } = loadYamlObjects(text, FILE);
    assert.deepEqual(diagnostics, []);
    const key = { kind: 'Junction', name: 'merge' };
    const at = (path: string) => {
      const location = sourceMap.locate(key, path);
      return location && `${location.file}:${location.line}:${location.column}`;
    };
    assert.equal(at(''), 'graph.yaml:1:1');
    assert.equal(at('metadata.name'), 'graph.yaml:4:3');
    assert.equal(at('spec.from[1]'), 'graph.yaml:6:13');
    assert.equal(at('spec.routes'), 'graph.yaml:7:3');
    assert.equal(at('spec.routes[0]'), 'graph.yaml:8:7');
    assert.equal(at('spec.routes[0].set[1].value'), 'graph.yaml:13:11');
    assert.equal(at('spec.routes[0].onMessageError.action'), 'graph.yaml:16:25');
    assert.equal(at('spec.routes[0].set[1].value.deeper'), 'graph.yaml:13:11', 'longest known prefix');
  });

  it('skips empty documents and comment-only documents', () => {
    const { objects, diagnostics } = loadYamlObjects(`---\n---\n# nothing here\n---\n${relay('a')}---\n`);
    assert.deepEqual(diagnostics, []);
    assert.equal(objects.length, 1);
  });

  it('accepts a List, as kubectl does, with locations inside its items', () => {
    const item = (name: string) =>
      `  - apiVersion: ${API_VERSION}\n    kind: Relay\n    metadata:\n      name: ${name}\n    spec: { schema: s, branching: UNBRANCHED }\n`;
    const { objects, diagnostics, sourceMap } = loadYamlObjects(
      `apiVersion: v1\nkind: List\nitems:\n${item('a')}${item('b')}`,
      FILE,
    );
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      objects.map((object) => object.metadata.name),
      ['a', 'b'],
    );
    assert.equal(sourceMap.locate({ kind: 'Relay', name: 'b' }, 'metadata.name')?.line, 12);
  });

  describe('bad input gives diagnostics with FILE:LINE:COL, never a throw', () => {
    it('not YAML: SR1010 at the YAML error', () => {
      const { objects, diagnostics } = loadYamlObjects('kind: [Relay\nspec: {\n', FILE);
      assert.equal(objects.length, 0);
      assert.ok(diagnostics.length > 0);
      assert.ok(diagnostics.every((d) => d.code === 'SR1010' && d.location?.file === FILE));
      assert.match(formatDiagnostic(diagnostics[0]!), /^graph\.yaml:\d+:\d+: error SR1010: not valid YAML: /);
    });

    it('a repeated key: SR1010 at the second key', () => {
      const { diagnostics } = loadYamlObjects(relay('a', '\n  name: b'), FILE);
      assert.deepEqual(where(diagnostics), ['SR1010@5:3']);
    });

    it('an alias bomb: SR1010, not a hang', () => {
      const bomb = [
        'a: &a [x, x, x, x, x, x, x, x, x, x]',
        ...Array.from({ length: 8 }, (_, i) => {
          const name = String.fromCharCode(98 + i);
          const previous = String.fromCharCode(97 + i);
          return `${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`;
        }),
      ].join('\n');
      const { diagnostics } = loadYamlObjects(bomb, FILE);
      assert.deepEqual(
        diagnostics.map((d) => d.code),
        ['SR1010'],
      );
    });

    it('absurdly deep nesting: SR1010 before the parser can exhaust the stack or memory', () => {
      for (const text of ['a: ' + '['.repeat(1000) + ']'.repeat(1000), '- '.repeat(100000) + 'x', 'a: b']) {
        const { diagnostics } = loadYamlObjects(`${text}\n`, FILE);
        assert.equal(diagnostics[0]?.code, text === 'a: b' ? 'SR1011' : 'SR1010');
      }
    });

    it('a Deployment: SR1011 at its apiVersion, saying what was expected', () => {
      const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';
      const { diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(where(diagnostics), ['SR1011@1:1']);
      assert.match(diagnostics[0]!.message, /a Deployment \(apps\/v1\) is not a streamroute resource/);
      assert.match(diagnostics[0]!.message, new RegExp(`expected apiVersion ${API_VERSION}`));
    });

    it('our apiVersion with a kind we do not have: SR1011 at the kind', () => {
      const { diagnostics } = loadYamlObjects(`apiVersion: ${API_VERSION}\nkind: Router\n`, FILE);
      assert.deepEqual(where(diagnostics), ['SR1011@2:1']);
    });

    it('a document that is not a mapping: SR1011', () => {
      const { diagnostics } = loadYamlObjects('- just\n- a list\n', FILE);
      assert.deepEqual(where(diagnostics), ['SR1011@1:1']);
    });

    it('an unknown field: SR1012 at its key', () => {
      const { diagnostics } = loadYamlObjects(`${relay('a')}  colour: blue\n`, FILE);
      assert.deepEqual(where(diagnostics), ['SR1012@8:3']);
      assert.equal(diagnostics[0]!.path, 'spec.colour');
      assert.deepEqual(diagnostics[0]!.object, { kind: 'Relay', name: 'a' });
      assert.equal(
        formatDiagnostic(diagnostics[0]!),
        'graph.yaml:8:3: error SR1012: Relay a spec.colour: is not a known field',
      );
    });

    it('wrong types: SR1012 at each field', () => {
      const text = client(`    protocol: udp\n    addr: 0.0.0.0:514\n    maxMessageSize: big\n`).replace(
        'name: syslog-in',
        'name: 7',
      );
      const { diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(where(diagnostics), ['SR1012@4:3', 'SR1012@9:5']);
      assert.deepEqual(
        diagnostics.map((d) => d.path),
        ['metadata.name', 'spec.config.maxMessageSize'],
      );
    });

    it('a missing required field: SR1012 at the closest node', () => {
      const { diagnostics } = loadYamlObjects(client('    protocol: udp\n'), FILE);
      assert.deepEqual(where(diagnostics), ['SR1012@6:3']);
      assert.equal(diagnostics[0]!.path, 'spec.config.addr');
    });

    it('a broken CEL-twin rule (framing on udp): the rule’s code at the field', () => {
      const text = client('    protocol: udp\n    addr: 0.0.0.0:514\n    framing: octet-counting\n');
      const { diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(where(diagnostics), ['SR2032@9:5']);
      assert.match(diagnostics[0]!.message, /framing is not allowed with protocol udp/);
    });

    it('an unknown protocol: SR2030, naming the protocol and the ones expected', () => {
      const { diagnostics } = loadYamlObjects(client('    protocol: sctp\n    addr: 0.0.0.0:514\n'), FILE);
      assert.deepEqual(where(diagnostics), ['SR2030@7:5']);
      assert.equal(diagnostics[0]!.message, "unknown protocol 'sctp': expected udp, tcp or tls");
    });

    it('a Kafka password in the resource: SR1020 at the field, without the password', () => {
      const text = `apiVersion: ${API_VERSION}
kind: KafkaClient
metadata: { name: kafka }
spec:
  config:
    bootstrapServers: [b-1:9092]
    securityProtocol: sasl_plaintext
    saslMechanism: plain
    saslUsername: shop
    saslPassword: hunter2
`;
      const { diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(
        diagnostics.map(
          (d) => `${d.code}@${d.location?.line ?? '?'}:${d.location?.column ?? '?'} ${d.path ?? ''}`,
        ),
        ['SR1020@10:5 spec.config.saslPassword', 'SR2072@5:3 spec.config.saslPasswordFile'],
      );
      assert.match(diagnostics[0]!.message, /a password is never kept in the resource/);
      assert.doesNotMatch(diagnostics.map(formatDiagnostic).join('\n'), /hunter2/);
    });

    it('a rule without a code of its own: SR1013', () => {
      const text = `apiVersion: ${API_VERSION}
kind: SyslogIngestor
metadata: { name: in }
spec:
  client: c
  mode: NO_ACK
  quiesce: { action: BUFFER, onOverflow: DROP_OLDEST }
  codec: syslog
  routes:
    - { to: r, inheritAll: true, branching: UNBRANCHED, flush: IMMEDIATE, onMessageError: { action: LOG } }
  onGeneralError: LOG
`;
      const { diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(where(diagnostics), ['SR1013@7:3']);
      assert.equal(diagnostics[0]!.path, 'spec.quiesce.maxSize');
    });

    it('duplicate names: SR1014 at the second, pointing back at the first', () => {
      const { objects, diagnostics } = loadYamlObjects(`${relay('a')}---\n${relay('a')}`, FILE);
      assert.equal(objects.length, 1);
      assert.deepEqual(where(diagnostics), ['SR1014@12:3']);
      assert.match(
        diagnostics[0]!.message,
        /Relay a is declared twice \(first declared at graph\.yaml:4:3\)/,
      );
    });

    it('the same name in two namespaces is not a duplicate', () => {
      const text = `${relay('a', '\n  namespace: one')}---\n${relay('a', '\n  namespace: two')}`;
      const { objects, diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(diagnostics, []);
      assert.equal(objects.length, 2);
    });

    it('one bad document does not stop the others', () => {
      const text = `${relay('a')}---\nkind: [\n---\n${relay('b')}`;
      const { objects, diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(
        objects.map((object) => object.metadata.name),
        ['a', 'b'],
      );
      assert.ok(diagnostics.every((d) => d.code === 'SR1010'));
    });

    it('a DataplaneNode: SR1011 saying it is a node report, not part of a graph', () => {
      const text = `apiVersion: ${API_VERSION}\nkind: DataplaneNode\nmetadata: { name: node-1 }\nspec: { nodeName: n }\n`;
      const { diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(where(diagnostics), ['SR1011@2:1']);
      assert.equal(
        diagnostics[0]!.message,
        'a DataplaneNode is a node report, written by the data plane, not part of a graph',
      );
    });

    it('a wire schema named syslog, or a codec naming one: SR1002 (SYSLOG is predefined)', () => {
      const text = `apiVersion: ${API_VERSION}
kind: WireSchema
metadata: { name: syslog }
spec: { format: JSON, mode: STRICT, fields: [{ name: a, type: string }] }
---
apiVersion: ${API_VERSION}
kind: Codec
metadata: { name: c }
spec: { from: WIRE_JSON, wireSchema: syslog, schema: s }
`;
      const { objects, diagnostics } = loadYamlObjects(text, FILE);
      assert.deepEqual(where(diagnostics), ['SR1002@3:13', 'SR1002@9:26']);
      assert.match(
        diagnostics[0]!.message,
        /^SYSLOG is the predefined syslog wire schema and cannot be declared/,
      );
      assert.deepEqual(
        diagnostics.map((d) => d.path),
        ['metadata.name', 'spec.wireSchema'],
      );
      assert.deepEqual(
        objects.map((object) => object.kind),
        ['WireSchema', 'Codec'],
        'handed on with their diagnostics, like any object with problems',
      );
    });

    it('objects already declared by other inputs: SR1014 across calls', () => {
      const declared = new Declarations<unknown>();
      assert.deepEqual(loadYamlObjects(relay('a'), 'one.yaml', { declared }).diagnostics, []);
      const second = loadYamlObjects(relay('a'), 'two.yaml', { declared });
      assert.deepEqual(where(second.diagnostics), ['SR1014@4:3']);
      assert.match(second.diagnostics[0]!.message, /first declared at one\.yaml:4:3/);
      assert.deepEqual(second.objects, []);
    });

    it('without a file name the location still has line and column', () => {
      const { diagnostics } = loadYamlObjects(`${relay('a')}  colour: blue\n`);
      assert.deepEqual(diagnostics[0]!.location, { line: 8, column: 3 });
    });
  });

  describe('expression text must be one expression (SR1015), so it cannot print as something else', () => {
    const junction = (value: string) => `apiVersion: ${API_VERSION}
kind: Junction
metadata: { name: j }
spec:
  from: [a]
  routes:
    - to: b
      set:
        - field: x
          value: ${value}
      branching: UNBRANCHED
      flush: IMMEDIATE
      onMessageError:
        action: SEND_TO
        relay: errors
        set: [{ field: why, value: error.message }]
`;

    it('a SET value holding more clauses: SR1015 at the token where the expression stops', () => {
      const value = '"input.x, y = input.y FLUSH IMMEDIATE ON MESSAGE ERROR LOG TO c SET z = 1"';
      const { objects, diagnostics } = loadYamlObjects(junction(value), FILE);
      assert.deepEqual(where(diagnostics), ['SR1015@10:26']);
      assert.deepEqual(diagnostics[0]!.object, { kind: 'Junction', name: 'j' });
      assert.equal(diagnostics[0]!.path, 'spec.routes[0].set[0].value');
      assert.match(diagnostics[0]!.message, /^the expression does not parse: found ',' but expected/);
      assert.equal(objects.length, 1, 'handed on with its error, so the compiler rejects it too');
    });

    it('plain and literal-block text are located inside; escaped text at its start', () => {
      assert.deepEqual(where(loadYamlObjects(junction('input.x +'), FILE).diagnostics), ['SR1015@10:27']);
      const block = '|\n            upper(input.x)\n              AND AND';
      assert.deepEqual(where(loadYamlObjects(junction(block), FILE).diagnostics), ['SR1015@12:19']);
      const escaped = '"input.\\x78 +"';
      assert.deepEqual(where(loadYamlObjects(junction(escaped), FILE).diagnostics), ['SR1015@10:18']);
    });

    it('CORRELATE WHERE and SEND TO handlers are checked too; good text loads', () => {
      const handler = junction('input.x').replace('value: error.message', `value: "'unclosed"`);
      assert.deepEqual(
        loadYamlObjects(handler, FILE).diagnostics.map((d) => `${d.code} ${d.path}`),
        ['SR1015 spec.routes[0].onMessageError.set[0].value'],
      );
      const correlator = `apiVersion: ${API_VERSION}
kind: Correlator
metadata: { name: c }
spec:
  left: a
  right: b
  where: "TRUE MATCH LATEST; CREATE RELAY evil SCHEMA s UNBRANCHED; --"
  match: EARLIEST
  maxTime: 30s
  onTimeout: { left: { action: DROP }, right: { action: DROP } }
  branching: UNBRANCHED
  routes:
    - { to: o, set: [{ field: id, value: left.id }], branching: UNBRANCHED, flush: IMMEDIATE, onMessageError: { action: LOG } }
`;
      const { diagnostics } = loadYamlObjects(correlator, FILE);
      assert.deepEqual(where(diagnostics), ['SR1015@7:16']);
      assert.equal(diagnostics[0]!.path, 'spec.where');
      assert.deepEqual(loadYamlObjects(junction('upper(input.x) -- note'), FILE).diagnostics, []);
    });
  });

  it('refuses a line of chained `key: key:` pairs as too deep instead of overflowing the parser (found by npm run fuzz)', () => {
    const chained = `spec:\n    properties:\n      description: ${"'Whatption: '".repeat(3000)}x\n    required:\n`;
    let diagnostics: readonly Diagnostic[] = [];
    assert.doesNotThrow(() => ({ diagnostics } = loadYamlObjects(chained, FILE)));
    assert.equal(diagnostics.length, 1);
    assert.match(diagnostics[0]!.message, /nests deeper than 200 levels/);
    assert.equal(diagnostics[0]!.location?.line, 3);
  });

  it('says where the parser ran out of stack on nesting the pre-scan cannot see, instead of throwing (found by npm run fuzz)', () => {
    // Unclosed flow brackets under the pre-scan's limit, then lines the parser nests one level deeper
    // each: its recursion depends on how it recovers from the errors, not on what indentation shows.
    const head =
      'apiVersion: streamroute.io/v1alpha1\nkind: Schema\nspec:\n  fields:\n    - name: card_number\n';
    for (const [brackets, lines] of [
      [150, 3_000],
      [100, 6_000],
      [150, 12_000],
    ] as const) {
      const text = `${head}    ${'['.repeat(brackets)}  type: STRIN   - name: card_number\n${'      type: STRIN   - name: card_number\n'.repeat(lines)}`;
      let diagnostics: readonly Diagnostic[] = [];
      assert.doesNotThrow(
        () => ({ diagnostics } = loadYamlObjects(text, FILE)),
        `${brackets} brackets, ${lines} lines`,
      );
      const last = diagnostics.at(-1);
      assert.match(last?.message ?? '', /nests too deeply for the YAML parser here \(it ran out of stack\)/);
      assert.ok((last?.location?.line ?? 0) >= 1);
    }
  });

  it('refuses a mapping key that is itself a mapping or list, and prints none of its text (found by npm run fuzz)', () => {
    // process.on('warning') would hear of a warning only on a later tick: catch emitWarning itself.
    const warnings = warningsDuring(() => {
      for (const key of ['? [ secret-payload-value ]\n  ', '? { secret-payload-value }\n  ']) {
        const { objects, diagnostics } = loadYamlObjects(`${relay('a')}  ${key}: 1\n`, FILE);
        assert.deepEqual(objects, [], key);
        assert.deepEqual(where(diagnostics), ['SR1010@8:5'], key);
        assert.match(diagnostics[0]!.message, /a mapping key must be a plain value/);
        assert.ok(!diagnostics[0]!.message.includes('secret'), key);
      }
    });
    assert.deepEqual(warnings, []);
  });
});
