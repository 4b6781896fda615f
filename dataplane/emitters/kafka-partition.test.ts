import assert from 'node:assert/strict';
import fc from 'fast-check';
import { murmur2 as libraryMurmur2 } from '@platformatic/kafka';
import { keyPartition, murmur2 } from './kafka-partition.js';

describe('kafka-partition', () => {
  it("hashes as the library's murmur2, and partitions as Kafka's Java producer (sign bit cleared)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const key = Buffer.from(bytes);
        assert.equal(murmur2(key), libraryMurmur2(key));
        assert.equal(keyPartition(key), libraryMurmur2(key) & 0x7fffffff);
        assert.ok(keyPartition(key) >= 0);
      }),
      { numRuns: 2000 },
    );
  });

  it("matches Kafka's own murmur2 on known keys", () => {
    // Values of org.apache.kafka.common.utils.Utils.murmur2 (its UtilsTest).
    const cases: [string, number][] = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ];
    for (const [text, hash] of cases) assert.equal(murmur2(Buffer.from(text)), hash, text);
  });

  it('bug: hashing an 11 MiB key took hours in the library; here it takes milliseconds', () => {
    const key = Buffer.alloc(11 * 1024 * 1024, 0x78);
    const started = performance.now();
    keyPartition(key);
    assert.ok(performance.now() - started < 1_000);
  });
});
