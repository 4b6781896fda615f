import assert from 'node:assert/strict';
import { checkGraphObject } from './validate-object.js';

const client = (config: Record<string, unknown>) => ({
  apiVersion: 'streamroute.io/v1alpha1',
  kind: 'SyslogClient',
  metadata: { name: 'syslog-in' },
  spec: { config },
});

function problemsOf(document: unknown): string[] {
  const result = checkGraphObject(document);
  return result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

describe('checkGraphObject', () => {
  it('accepts a valid object', () => {
    const result = checkGraphObject(client({ protocol: 'tcp', addr: '127.0.0.1:6514' }));
    assert.equal(result.ok, true);
  });

  it('marks documents of other APIs as not ours', () => {
    const result = checkGraphObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.notOurs, true);
  });

  const cases: [string, unknown, string][] = [
    ['missing required', client({ addr: '127.0.0.1:514' }), 'spec.config.protocol: is required'],
    [
      'unknown field',
      client({ protocol: 'udp', addr: 'a:1', color: 'red' }),
      'spec.config.color: is not a known field',
    ],
    ['enum', client({ protocol: 'sctp', addr: 'a:1' }), 'spec.config.protocol: unsupported value "sctp"'],
    [
      'wrong type',
      client({ protocol: 'udp', addr: 'a:1', maxMessageSize: '10' }),
      'spec.config.maxMessageSize: must be an integer',
    ],
    [
      'bound',
      client({ protocol: 'udp', addr: 'a:1', maxMessageSize: 0 }),
      'spec.config.maxMessageSize: must be at least 1',
    ],
    [
      'null',
      client({ protocol: 'udp', addr: 'a:1', framing: null }),
      'spec.config.framing: must not be null',
    ],
    [
      'rule: addr',
      client({ protocol: 'udp', addr: 'localhost' }),
      'spec.config.addr: addr must be host:port',
    ],
    [
      'rule: port range',
      client({ protocol: 'udp', addr: 'h:70000' }),
      'spec.config.addr: addr must be host:port',
    ],
    [
      'rule: port 0',
      client({ protocol: 'udp', addr: 'h:0' }),
      'spec.config.addr: addr must be host:port with a port from 1 to 65535',
    ],
    [
      'rule: framing on udp',
      client({ protocol: 'udp', addr: 'h:1', framing: 'octet-counting' }),
      'spec.config.framing: framing is not allowed with protocol udp',
    ],
    [
      'rule: half identity',
      client({ protocol: 'tls', addr: 'h:1', tlsCertFile: 'c.pem' }),
      'spec.config.tlsKeyFile: tls_key_file is required with tls_cert_file',
    ],
    [
      'bad name',
      { ...client({ protocol: 'udp', addr: 'h:1' }), metadata: { name: 'Bad_Name' } },
      'metadata.name: must be a lower-case name',
    ],
  ];
  for (const [title, document, expected] of cases) {
    it(`reports ${title}`, () => {
      const problems = problemsOf(document);
      assert.ok(
        problems.some((problem) => problem.startsWith(expected)),
        `expected "${expected}" among:\n${problems.join('\n')}`,
      );
    });
  }

  it('reports a field once: a rule does not repeat a structural problem of its field', () => {
    const problems = problemsOf(client({ protocol: 'udp', addr: 514 }));
    assert.deepEqual(problems, ['spec.config.addr: must be a string']);
  });

  it('reports every key of a config, even when another key is malformed', () => {
    const problems = problemsOf(client({ protocol: 'sctp', addr: 'nohost' }));
    assert.deepEqual(problems, [
      'spec.config.protocol: unsupported value "sctp": expected one of udp, tcp, tls',
      'spec.config.addr: addr must be host:port with a port from 1 to 65535 (IPv6 in brackets: [::1]:514)',
    ]);
  });

  it('finds duplicate keys of map lists', () => {
    const schema = {
      apiVersion: 'streamroute.io/v1alpha1',
      kind: 'Schema',
      metadata: { name: 's' },
      spec: {
        fields: [
          { name: 'a', type: 'STRING' },
          { name: 'a', type: 'I64' },
        ],
      },
    };
    assert.deepEqual(problemsOf(schema), ['spec.fields[1]: duplicate entry ["a"]']);
  });

  it('carries the rule code for rules docs/errors.md names', () => {
    const result = checkGraphObject(client({ protocol: 'udp', addr: 'h:1', framing: 'octet-counting' }));
    assert.equal(result.ok, false);
    const rule = (result.problems[0] as { code?: string } | undefined)?.code;
    assert.equal(rule, 'SR2032');
  });
});
