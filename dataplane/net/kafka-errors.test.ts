// kafkaErrorInfo on the library's own errors (@platformatic/kafka): the code people see must name the cause.
import assert from 'node:assert/strict';
import { MultipleErrors, UserError } from '@platformatic/kafka';
import { kafkaErrorInfo } from './kafka-errors.js';

describe('kafkaErrorInfo', () => {
  it("bug: a topic that does not exist showed as PLT_KFK_USER (the library's own error for it)", () => {
    // What Consumer.consume() and Producer.metadata() reject with when the broker answers the topic's
    // metadata with UNKNOWN_TOPIC_OR_PARTITION (seen against a real broker: kafka-faults.interop.test.ts).
    const error = new UserError('Unknown topic orders.');
    assert.deepEqual(kafkaErrorInfo(error), {
      code: 'UNKNOWN_TOPIC_OR_PARTITION',
      reason: 'the topic does not exist',
    });
    const wrapped = new MultipleErrors('retries exhausted', [error]);
    assert.equal(kafkaErrorInfo(wrapped).code, 'UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('keeps PLT_KFK_USER for the rest of the library’s user errors', () => {
    assert.deepEqual(kafkaErrorInfo(new UserError('Cannot leave group while consuming messages.')), {
      code: 'PLT_KFK_USER',
      reason: 'PLT_KFK_USER',
    });
  });
});
