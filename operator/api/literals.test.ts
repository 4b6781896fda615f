import assert from 'node:assert/strict';
import { durationToMs, readDuration, readSize, sizeToBytes } from './literals.js';

describe('durations', () => {
  const VALID: [string, number][] = [
    ['500ms', 500],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['007s', 7000],
  ];
  for (const [text, ms] of VALID) {
    it(`${text} is ${ms}ms`, () => assert.equal(durationToMs(text), ms));
  }

  const INVALID: [string, RegExp][] = [
    ['30x', /is not a duration: write a whole number and a unit ms, s, m or h/],
    ['30', /is not a duration/],
    ['30S', /is not a duration/],
    ['1d', /is not a duration/],
    ['0s', /must be greater than zero/],
    ['1.5s', /\(1500ms\)$/],
    ['0.0001ms', /is not a duration: .*30s$/],
    ['-1s', /is not a duration/],
    ['', /is not a duration/],
    ['99999999999999999h', /too large/],
  ];
  for (const [text, reason] of INVALID) {
    it(`rejects '${text}'`, () => {
      const result = readDuration(text);
      assert.ok(!result.ok);
      assert.match(result.reason, reason);
      assert.equal(durationToMs(text), undefined);
    });
  }
});

describe('sizes', () => {
  const VALID: [string, number][] = [
    ['512', 512],
    ['512B', 512],
    ['64KiB', 65_536],
    ['1MiB', 1_048_576],
    ['2GiB', 2 * 1024 ** 3],
    ['1KB', 1000],
    ['3MB', 3_000_000],
    ['1GB', 1_000_000_000],
  ];
  for (const [text, bytes] of VALID) {
    it(`${text} is ${bytes} bytes`, () => assert.equal(sizeToBytes(text), bytes));
  }

  const INVALID: [string, RegExp][] = [
    ['1.5MiB', /is not a size: write a whole number of bytes/],
    ['64k', /is not a size/],
    ['1mib', /is not a size/],
    ['1TiB', /is not a size/],
    ['0', /must be greater than zero/],
    ['0KiB', /must be greater than zero/],
    ['99999999999999GiB', /too large/],
  ];
  for (const [text, reason] of INVALID) {
    it(`rejects '${text}'`, () => {
      const result = readSize(text);
      assert.ok(!result.ok);
      assert.match(result.reason, reason);
      assert.equal(sizeToBytes(text), undefined);
    });
  }
});
