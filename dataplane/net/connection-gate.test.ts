// The gate's accounting against a model, for generated sequences of connections opening and closing from
// a few peers on two listeners that share a pool: every refusal has the reason the model gives, nothing is
// admitted past a limit, and every place comes back when its connection closes.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { ManualClock } from '../core/clock.js';
import { readCounter } from '../core/telemetry.js';
import { ConnectionGate, ConnectionPool, peerKey, wasRefused } from './connection-gate.js';
import { ConnectionTelemetry } from './connection-telemetry.js';

class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    queueMicrotask(() => this.emit('close'));
  }
}

const PEERS = [
  '10.0.0.1',
  '10.0.0.2',
  '::ffff:10.0.0.1',
  '2001:db8::1',
  '2001:db8:0:0:ffff::2',
  '2001:db8:1::1',
];

type Step = { kind: 'open'; listener: 0 | 1; peer: number } | { kind: 'close'; index: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('open' as const),
      listener: fc.constantFrom(0 as const, 1 as const),
      peer: fc.nat(PEERS.length - 1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), index: fc.nat(200) }) },
);

describe('ConnectionGate', () => {
  it('peer keys: IPv4 as written or IPv4-mapped, IPv6 by its /64', () => {
    assert.equal(peerKey('10.0.0.1'), '10.0.0.1');
    assert.equal(peerKey('::ffff:10.0.0.1'), '10.0.0.1');
    assert.equal(peerKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(peerKey('2001:db8:0:0:ffff::2'), '2001:db8:0:0::/64');
    assert.equal(peerKey('2001:0db8:0000:0001::9'), '2001:db8:0:1::/64');
    assert.equal(peerKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(peerKey('::1'), '0:0:0:0::/64');
    assert.equal(peerKey(undefined), 'unknown');
  });

  it('admits and refuses exactly as the limits say, and gives every place back (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(step, { maxLength: 120 }),
        async (poolMax, listenerMax, perPeer, steps) => {
          const registry = new Registry();
          const clock = new ManualClock();
          const pool = new ConnectionPool(poolMax);
          const gates = (['http', 'https'] as const).map(
            (name) =>
              new ConnectionGate(
                { maxConnections: listenerMax, maxPerPeer: perPeer, pool },
                new ConnectionTelemetry(name, { registry, logger: undefined, clock }),
              ),
          );
          const open: { socket: FakeSocket; listener: number; key: string }[] = [];
          const expected = new Map<string, number>();
          for (const s of steps) {
            if (s.kind === 'close') {
              const [gone] = open.splice(s.index % Math.max(1, open.length), 1);
              gone?.socket.destroy();
              await Promise.resolve();
              continue;
            }
            const address = PEERS[s.peer]!;
            const key = peerKey(address);
            const held = open.filter((c) => c.listener === s.listener && c.key === key).length;
            const onListener = open.filter((c) => c.listener === s.listener).length;
            const reason =
              perPeer < listenerMax && held >= perPeer
                ? 'peer_limit'
                : onListener >= listenerMax
                  ? 'listener_limit'
                  : open.length >= poolMax
                    ? 'node_limit'
                    : undefined;
            const socket = new FakeSocket(address);
            const admitted = gates[s.listener]!.admit(socket as unknown as Socket);
            assert.equal(
              admitted,
              reason === undefined,
              `step ${JSON.stringify(s)}: expected ${reason ?? 'admit'}`,
            );
            assert.equal(wasRefused(socket), !admitted);
            assert.equal(socket.destroyed, !admitted);
            if (admitted) open.push({ socket, listener: s.listener, key });
            else {
              const label = `${s.listener === 0 ? 'http' : 'https'} ${reason}`;
              expected.set(label, (expected.get(label) ?? 0) + 1);
            }
            assert.equal(pool.open, open.length);
          }
          for (const [label, count] of expected) {
            const [listener = '', reason = ''] = label.split(' ');
            assert.equal(
              await readCounter(registry, 'streamroute_connections_refused_total', { listener, reason }),
              count,
            );
          }
          for (const c of open.splice(0)) c.socket.destroy();
          await Promise.resolve();
          assert.equal(pool.open, 0);
          assert.deepEqual(
            gates.map((g) => g.open),
            [0, 0],
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('logs refusals once per interval per reason, with the exact count and no peer address', async () => {
    const registry = new Registry();
    const clock = new ManualClock();
    const lines: Record<string, unknown>[] = [];
    const logger = { warn: (fields: Record<string, unknown>) => lines.push(fields) } as never;
    const gate = new ConnectionGate(
      { maxConnections: 1 },
      new ConnectionTelemetry('http', { registry, logger, clock, logIntervalMs: 10_000 }),
    );
    assert.ok(gate.admit(new FakeSocket('10.0.0.1') as unknown as Socket));
    for (let i = 0; i < 500; i++)
      gate.admit(new FakeSocket(`10.1.${i >> 8}.${i & 255}`) as unknown as Socket);
    await Promise.resolve();
    assert.equal(lines.length, 1);
    for (let i = 0; i < 300; i++) gate.admit(new FakeSocket('10.9.9.9') as unknown as Socket);
    assert.equal(lines.length, 1);
    clock.advance(10_000);
    assert.equal(lines.length, 2);
    assert.deepEqual(
      lines.map((l) => [l['listener'], l['reason'], l['count']]),
      [
        ['http', 'listener_limit', 500],
        ['http', 'listener_limit', 300],
      ],
    );
    assert.doesNotMatch(JSON.stringify(lines), /10\.\d+\.\d+\.\d+/);
    assert.equal(
      await readCounter(registry, 'streamroute_connections_refused_total', { listener: 'http' }),
      800,
    );
  });
});
