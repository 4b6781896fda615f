import assert from 'node:assert/strict';
import fc from 'fast-check';
import { int64Value, sint64Value, split64, uint64Value, zigzag64, type Halves } from './int64-bits.js';

const halvesOf = (value: bigint): Halves => split64(value, { lo: 0, hi: 0 });
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

describe('64-bit integers as halves', () => {
  it('writes the extremes with every digit', () => {
    assert.equal(String(uint64Value(0xffffffff, 0xffffffff)), '18446744073709551615');
    assert.equal(String(int64Value(0, 0x80000000)), '-9223372036854775808');
    assert.equal(String(int64Value(0xffffffff, 0x7fffffff)), '9223372036854775807');
    assert.equal(String(int64Value(0xffffffff, 0xffffffff)), '-1');
    assert.equal(String(sint64Value(0xffffffff, 0xffffffff)), '-9223372036854775808');
    assert.equal(String(sint64Value(0xfffffffe, 0xffffffff)), '9223372036854775807');
    assert.equal(String(uint64Value(1, 0x200000)), '9007199254740993');
    assert.equal(String(int64Value(0xffffffff, 0xffdfffff)), '-9007199254740993');
  });

  it('reads back what it splits, signed and unsigned, from bigints and from safe numbers', () => {
    fc.assert(
      fc.property(fc.bigInt(INT64), (value) => {
        const { lo, hi } = halvesOf(value);
        assert.equal(String(int64Value(lo, hi)), value.toString());
        assert.equal(String(uint64Value(lo, hi)), BigInt.asUintN(64, value).toString());
        if (Number.isSafeInteger(Number(value)))
          assert.deepEqual(split64(Number(value), { lo: 0, hi: 0 }), { lo, hi });
      }),
      { numRuns: 2000 },
    );
  });

  it('zig-zags as protobuf does: (n << 1) ^ (n >> 63)', () => {
    fc.assert(
      fc.property(fc.bigInt(INT64), (value) => {
        const { lo, hi } = zigzag64(halvesOf(value));
        assert.equal(
          String(uint64Value(lo, hi)),
          BigInt.asUintN(64, (value << 1n) ^ (value >> 63n)).toString(),
        );
        assert.equal(String(sint64Value(lo, hi)), value.toString());
      }),
      { numRuns: 2000 },
    );
  });
});
