import assert from 'node:assert/strict';
import { batchScript, ShellBatch } from './shell-batch.js';

const RELAY = 'CREATE RELAY audit SCHEMA orders UNBRANCHED;';

describe('ShellBatch', () => {
  it('outside a batch every statement is sent; reads do not change the names', () => {
    const batch = new ShellBatch();
    assert.deepEqual(batch.step(RELAY), { do: 'send', script: RELAY, source: '<shell>', changes: true });
    assert.deepEqual(batch.step('SHOW RELAYS;'), {
      do: 'send',
      script: 'SHOW RELAYS;',
      source: '<shell>',
      changes: false,
    });
    // the node says what is wrong with a COMMIT without BEGIN, or a typo, as for -c
    assert.equal(batch.step('COMMIT;').do, 'send');
    assert.equal(batch.step('CRATE RELAY x;').do, 'send');
    assert.equal(batch.open, false);
  });

  it('BEGIN holds the statements until COMMIT sends them as one script', () => {
    const batch = new ShellBatch();
    assert.equal(batch.step('begin;').do, 'open');
    assert.deepEqual(batch.step(RELAY), { do: 'hold', message: '-- held: 1 statement in the batch' });
    assert.equal(batch.step('DROP RELAY old;').do, 'hold');
    assert.equal(batch.size, 2);
    assert.deepEqual(batch.step('COMMIT;'), {
      do: 'send',
      script: `BEGIN;\n${RELAY}\nDROP RELAY old;\nCOMMIT;`,
      source: '<batch>',
      changes: true,
    });
    assert.equal(batch.open, false);
  });

  it('ROLLBACK drops what was held; quitting with a batch open says nothing of it ran', () => {
    const batch = new ShellBatch();
    batch.step('BEGIN;');
    batch.step(RELAY);
    assert.deepEqual(batch.step('ROLLBACK;'), {
      do: 'discard',
      message: 'ROLLBACK -- 1 statement discarded; nothing was sent',
    });
    assert.equal(batch.abandon(), undefined);
    batch.step('BEGIN;');
    assert.equal(batch.abandon(), '-- the open batch (0 statements) was not committed: nothing of it ran');
  });

  it('in a batch, reads run at once, with a note the first time', () => {
    const batch = new ShellBatch();
    batch.step('BEGIN;');
    const first = batch.step('SHOW RELAYS;');
    assert.equal(first.do === 'send' && first.note?.startsWith('-- runs now, outside the batch'), true);
    const second = batch.step('DESCRIBE EMITTER e;');
    assert.equal(second.do === 'send' && second.note, undefined);
    assert.equal(batch.size, 0);
  });

  it('in a batch, a typo, BEGIN and UPLOAD RESOURCE are refused at once and the batch stays open', () => {
    const batch = new ShellBatch();
    batch.step('BEGIN;');
    const typo = batch.step('CRATE RELAY x;');
    assert.equal(typo.do, 'refuse');
    assert.match(typo.do === 'refuse' ? typo.lines[0]! : '', /^<shell>:1:1: error SR1001: /);
    const nested = batch.step('BEGIN;');
    assert.deepEqual(nested.do === 'refuse' && nested.lines, [
      '<shell>: error SR1008: BEGIN inside a batch: batches do not nest; COMMIT or ROLLBACK the open one',
      'not added to the batch',
    ]);
    const upload = batch.step("UPLOAD RESOURCE p VERSION './p';");
    assert.match(
      upload.do === 'refuse' ? upload.lines[0]! : '',
      /error SR1007: UPLOAD RESOURCE cannot be used/,
    );
    assert.equal(batch.open, true);
    assert.equal(batch.size, 0);
  });

  it('the batch script puts each statement on its own lines', () => {
    assert.equal(batchScript(['A;', 'B\n  C;']), 'BEGIN;\nA;\nB\n  C;\nCOMMIT;');
  });
});
