import assert from 'node:assert/strict';
import { kindOfListed } from './top-sample.js';

describe('top: the kind of a SHOW row', () => {
  it('reads an ingestor’s kind from its TYPE column, topic ingestors included', () => {
    const ingestor = (type: string) => ({ kind: 'Ingestor' as const, name: 'i', columns: { TYPE: type } });
    assert.deepEqual(
      ['HTTP', 'SYSLOG', 'TOPIC'].map((type) => kindOfListed(ingestor(type))),
      ['http-ingestor', 'syslog-ingestor', 'topic-ingestor'],
    );
    assert.equal(kindOfListed({ kind: 'Client', name: 'c', columns: { TYPE: 'KAFKA' } }), undefined);
  });
});
