// The partition of a keyed message of an emitter TO KAFKA: what Kafka's own Java producer chooses — murmur2 of
// the key bytes, made positive by clearing the sign bit (Utils.toPositive), modulo the topic's partition
// count (the producer takes the modulo) — so a key lands on the partition a Java producer would give it,
// and records of one key from both stay together. Two differences from @platformatic/kafka's default
// partitioner, which is why we compute it: the library takes the hash unsigned (`>>> 0`), which puts about
// half of all keys on another partition than Java does when the count is not a power of two (486 of the
// keys o0…o999 on 3 partitions); and its murmur2 multiplies BigInts it never truncates, so its time grows
// with the square of the key's length (100 KiB 0.56 s, 11 MiB hours), all on the node's event loop (found
// by kafka-faults.interop.test.ts). Here: 32-bit integer arithmetic, linear time.

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2) of `data`, as a signed 32-bit integer. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest > 0) {
    if (rest === 3) h ^= data[whole + 2]! << 16;
    if (rest >= 2) h ^= data[whole + 1]! << 8;
    h ^= data[whole]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition number to hand the producer for a message with this key (it takes it modulo the count). */
export function keyPartition(key: Uint8Array): number {
  return murmur2(key) & 0x7fffffff;
}
