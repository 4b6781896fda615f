import assert from 'node:assert/strict';
import { loadGraph } from './load.js';
import type { Graph } from './types.js';

function goodGraph(): Graph {
  const field = (name: string): Graph['schemas'][string]['fields'][number] => ({
    name,
    type: 'STRING',
    optional: false,
    sensitive: false,
  });
  return {
    apiVersion: 'streamroute.io/graph/v1',
    domain: 'shop',
    schemas: {
      line: {
        fields: [field('message'), { name: 'severity', type: 'U8', optional: false, sensitive: false }],
      },
    },
    codecs: { syslog: { kind: 'syslog', schema: 'line', canEncode: false, fields: ['message', 'severity'] } },
    relays: { lines: { schema: 'line', branching: 'UNBRANCHED' } },
    clients: { udp: { protocol: 'udp', host: '0.0.0.0', port: 514, maxMessageSize: 131072 } },
    kafkaClients: {
      kafka: {
        brokers: [
          { host: 'broker-1', port: 9092 },
          { host: '::1', port: 9093 },
        ],
        clientId: 'streamroute-shop-kafka',
        securityProtocol: 'sasl_ssl',
        sasl: {
          mechanism: 'scram-sha-512',
          username: 'shop',
          passwordFile: { resource: 'pki', version: 2, file: 'password' },
        },
        tls: { caFile: { resource: 'pki', version: 2, file: 'ca.crt' } },
        mount: { resource: 'pki', version: 2 },
      },
    },
    httpIngestors: {},
    syslogIngestors: {
      'udp-in': {
        client: 'udp',
        mode: 'NO_ACK',
        quiesce: { action: 'SUSPEND' },
        codec: 'syslog',
        routes: [
          {
            to: 'lines',
            inherit: ['message'],
            set: [
              {
                field: 'severity',
                value: { kind: 'literal', literal: 'INTEGER', value: '5', type: 'I64', nullable: false },
              },
            ],
            branching: 'UNBRANCHED',
            flush: 'IMMEDIATE',
            onMessageError: { action: 'LOG' },
          },
        ],
        onGeneralError: 'LOG',
      },
    },
    topicIngestors: {
      'lines-in': {
        client: 'kafka',
        topic: 'lines',
        group: 'shop',
        startFrom: 'EARLIEST',
        mode: 'ACK',
        quiesce: { action: 'SUSPEND' },
        codec: 'syslog',
        routes: [
          {
            to: 'lines',
            inherit: ['message', 'severity'],
            set: [],
            branching: 'UNBRANCHED',
            flush: 'IMMEDIATE',
            onMessageError: { action: 'LOG' },
          },
        ],
        onGeneralError: 'LOG',
      },
    },
    junctions: {},
    correlators: {},
    emitters: {
      'lines-out': {
        from: 'lines',
        client: 'kafka',
        kafka: {
          topic: 'lines-copy',
          key: { kind: 'field', scope: 'input', name: 'message', type: 'STRING', nullable: false },
        },
        codec: 'syslog',
        mode: 'ACK',
        retry: { backoffMs: 100, maxMs: 1000 },
        flush: 'IMMEDIATE',
        onMessageError: { action: 'LOG' },
        onGeneralError: 'LOG',
      },
    },
  };
}

const REMOVE = Symbol('remove');

/** A copy of the good graph with the value at a JSON pointer replaced (or removed). */
function changed(pointer: string, value: unknown): unknown {
  const graph = structuredClone(goodGraph()) as unknown as Record<string, unknown>;
  const keys = pointer.split('/').slice(1);
  const last = keys.pop() ?? '';
  let node: Record<string, unknown> = graph;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return graph;
}

const ROUTE = '/syslogIngestors/udp-in/routes/0';
const EVAL = { kind: 'call', name: 'eval', args: [], type: 'STRING', nullable: false };

describe('loadGraph', () => {
  it('loads a good graph', () => {
    const result = loadGraph(goodGraph());
    assert.ok(result.ok, result.ok ? '' : result.errors.join('\n'));
  });

  it('loads a graph compiled before Kafka (no kafkaClients, no topicIngestors) as one with none', () => {
    const graph = goodGraph() as unknown as Record<string, unknown>;
    const emitters = graph.emitters as Record<string, { kafka?: unknown }>;
    for (const name of Object.keys(emitters)) if (emitters[name]?.kafka !== undefined) delete emitters[name];
    delete graph.kafkaClients;
    delete graph.topicIngestors;
    const result = loadGraph(graph);
    assert.ok(result.ok, result.ok ? '' : result.errors.join('\n'));
    assert.deepEqual(result.graph.kafkaClients, {});
    assert.deepEqual(result.graph.topicIngestors, {});
  });

  const refused: [string, unknown, string][] = [
    ['not an object', 'graph', '(graph): must be object'],
    [
      'a wrong apiVersion',
      changed('/apiVersion', 'streamroute.io/graph/v2'),
      '/apiVersion: must be "streamroute.io/graph/v1"',
    ],
    ['a missing record', changed('/emitters', REMOVE), '(graph): missing emitters'],
    ['a missing field', changed('/clients/udp/port', REMOVE), '/clients/udp: missing port'],
    ['a wrong type', changed('/clients/udp/port', '514'), '/clients/udp/port: must be integer'],
    ['an unknown key', changed('/relays/lines/color', 'red'), '/relays/lines: unknown key color'],
    [
      'an unknown codec kind',
      changed('/codecs/syslog/kind', 'csv'),
      '/codecs/syslog/kind: unknown value "csv"',
    ],
    [
      'an expression without its type',
      changed(`${ROUTE}/set/0/value/type`, REMOVE),
      `${ROUTE}/set/0/value: missing type`,
    ],
    ['an unknown function', changed(`${ROUTE}/set/0/value`, EVAL), '/name: must be one of'],
    [
      'a bad resource name',
      changed('/relays/Lines', { schema: 'line', branching: 'UNBRANCHED' }),
      'property name',
    ],
    [
      'a reference to a missing relay',
      changed(`${ROUTE}/to`, 'nowhere'),
      'syslogIngestors.udp-in.routes[0]: relays has no entry nowhere',
    ],
    [
      'a reference to a missing schema',
      changed('/relays/lines/schema', 'gone'),
      'relays.lines: schemas has no entry gone',
    ],
    [
      'a topic ingestor reading a syslog client',
      changed('/topicIngestors/lines-in/client', 'udp'),
      'topicIngestors.lines-in.client: kafkaClients has no entry udp',
    ],
    [
      'a Kafka emitter naming a syslog client',
      changed('/emitters/lines-out/client', 'udp'),
      'emitters.lines-out.client: kafkaClients has no entry udp',
    ],
    [
      'a syslog emitter naming a Kafka client',
      changed('/emitters/lines-out/kafka', REMOVE),
      'emitters.lines-out.client: clients has no entry kafka',
    ],
    [
      'a syslog emitter with MODE ACK',
      changed('/emitters/lines-out/kafka', REMOVE),
      'emitters.lines-out.mode: ACK needs a Kafka emitter',
    ],
    [
      'a topic ingestor that buffers while quiesced',
      changed('/topicIngestors/lines-in/quiesce', {
        action: 'BUFFER',
        maxBytes: 1,
        onOverflow: 'DROP_OLDEST',
      }),
      '/topicIngestors/lines-in/quiesce/action: unknown value "BUFFER"',
    ],
    [
      'a broker without a port',
      changed('/kafkaClients/kafka/brokers/0/port', REMOVE),
      '/kafkaClients/kafka/brokers/0: missing port',
    ],
    [
      'SASL without a password file',
      changed('/kafkaClients/kafka/sasl/passwordFile', REMOVE),
      '/kafkaClients/kafka/sasl: missing passwordFile',
    ],
    [
      'a route field the target lacks',
      changed(`${ROUTE}/inherit/1`, 'hostname'),
      'schema line of relay lines has no field hostname',
    ],
  ];
  for (const [what, json, error] of refused) {
    it(`refuses ${what}`, () => {
      const result = loadGraph(json);
      assert.ok(!result.ok, 'refused');
      assert.ok(
        result.errors.some((found) => found.includes(error)),
        `${JSON.stringify(error)} in\n${result.errors.join('\n')}`,
      );
    });
  }
});
