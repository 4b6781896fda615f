import assert from 'node:assert/strict';
import { resolveConnectionFlags, resolveDataplaneFlags } from './dataplane-flags.js';

describe('connection-limit flags (--max-connections, --max-connections-per-peer, --admin-max-connections)', () => {
  it('pass whole numbers on, and leave the rest to the descriptor-limit defaults', () => {
    assert.deepEqual(resolveConnectionFlags({}), { connections: {} });
    assert.deepEqual(
      resolveConnectionFlags({
        maxConnections: '5000',
        maxConnectionsPerPeer: 50,
        adminMaxConnections: '300',
      }),
      { connections: { maxConnections: 5_000, maxConnectionsPerPeer: 50 }, adminMaxConnections: 300 },
    );
    const resolved = resolveDataplaneFlags({ nodeName: 'n1', maxConnections: '100' }, {});
    assert.ok(resolved.ok);
    assert.deepEqual(resolved.flags.connections, { maxConnections: 100 });
  });

  it('refuse anything but a whole number of at least 1, naming the flag', () => {
    for (const [flags, flag] of [
      [{ maxConnections: '0' }, '--max-connections 0'],
      [{ maxConnectionsPerPeer: '1.5' }, '--max-connections-per-peer 1.5'],
      [{ adminMaxConnections: 'many' }, '--admin-max-connections many'],
      [{ maxConnections: '-3' }, '--max-connections -3'],
    ] as const) {
      const resolved = resolveConnectionFlags(flags);
      assert.ok('message' in resolved);
      assert.equal(resolved.message, `${flag}: expected a whole number of at least 1`);
    }
    const refused = resolveDataplaneFlags({ nodeName: 'n1', maxConnections: '0' }, {});
    assert.deepEqual(refused, {
      ok: false,
      message: '--max-connections 0: expected a whole number of at least 1',
    });
  });
});
