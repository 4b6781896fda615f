import assert from 'node:assert/strict';
import type { JsonValue } from '../json-value.js';
import { cborBytes } from './cbor-writer.js';

// RFC 8949 Appendix A, the examples a JSON value can be: each in its preferred serialisation.
const APPENDIX_A: [JsonValue, string][] = [
  [0, '00'],
  [23, '17'],
  [24, '1818'],
  [100, '1864'],
  [1000, '1903e8'],
  [1000000, '1a000f4240'],
  [1000000000000, '1b000000e8d4a51000'],
  [18446744073709551615n, '1bffffffffffffffff'],
  [18446744073709551616n, 'c249010000000000000000'],
  [-18446744073709551616n, '3bffffffffffffffff'],
  [-18446744073709551617n, 'c349010000000000000000'],
  [-1, '20'],
  [-100, '3863'],
  [-1000, '3903e7'],
  [1.1, 'fb3ff199999999999a'],
  [-4.1, 'fbc010666666666666'],
  [false, 'f4'],
  [true, 'f5'],
  [null, 'f6'],
  ['', '60'],
  ['a', '6161'],
  ['\u00fc', '62c3bc'],
  ['\u6c34', '63e6b0b4'],
  [[], '80'],
  [[1, 2, 3], '83010203'],
  [[1, [2, 3], [4, 5]], '8301820203820405'],
  [{}, 'a0'],
  [{ a: 1, b: [2, 3] }, 'a26161016162820203'],
  [['a', { b: 'c' }], '826161a161626163'],
];

describe('cbor-writer: RFC 8949 preferred serialisation', () => {
  for (const [value, hex] of APPENDIX_A) {
    it(`${JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))} → ${hex}`, () => {
      assert.equal(Buffer.from(cborBytes(value)).toString('hex'), hex);
    });
  }

  it('writes a 25-item array and a 300-byte string with longer heads, and grows past its first buffer', () => {
    const items = Array.from({ length: 25 }, (_, index) => index);
    assert.equal(Buffer.from(cborBytes(items)).toString('hex').slice(0, 4), '9819');
    const long = cborBytes('x'.repeat(300));
    assert.equal(Buffer.from(long.subarray(0, 3)).toString('hex'), '79012c');
    assert.equal(long.length, 303);
  });

  it('keeps minus zero a double, and a "__proto__" key a key', () => {
    assert.equal(Buffer.from(cborBytes(-0)).toString('hex'), 'fb8000000000000000');
    const object = JSON.parse('{"__proto__":1}') as JsonValue;
    assert.equal(Buffer.from(cborBytes(object)).toString('hex'), 'a1695f5f70726f746f5f5f01');
  });
});
