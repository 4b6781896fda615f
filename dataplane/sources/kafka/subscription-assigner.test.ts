import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ClusterMetadata, ExtendedGroupProtocolSubscription } from '@platformatic/kafka';
import { subscriptionAssigner } from './subscription-assigner.js';

const TOPICS = ['a', 'b', 'c', 'd'];

/** Members (each with the topics it reads) and the partition count of each topic. */
const groups = fc.record({
  members: fc.array(fc.subarray(TOPICS, { minLength: 1 }), { minLength: 1, maxLength: 6 }),
  partitions: fc.tuple(...TOPICS.map(() => fc.integer({ min: 1, max: 12 }))),
});

describe('subscriptionAssigner', () => {
  it('gives each partition of every read topic to exactly one member that reads it, evenly (generated)', () => {
    fc.assert(
      fc.property(groups, ({ members, partitions }) => {
        const subscriptions = new Map<string, ExtendedGroupProtocolSubscription>(
          members.map((topics, index) => [`m${index}`, { memberId: `m${index}`, version: 0, topics }]),
        );
        const metadata = {
          topics: new Map(TOPICS.map((topic, index) => [topic, { partitionsCount: partitions[index]! }])),
        } as unknown as ClusterMetadata;
        // The leader's own topics are ignored on purpose: pass the first member's only.
        const result = subscriptionAssigner('m0', subscriptions, new Set(members[0]), metadata);
        for (const [index, topic] of TOPICS.entries()) {
          const readers = members.flatMap((topics, member) => (topics.includes(topic) ? [`m${member}`] : []));
          const owners = result.flatMap(({ memberId, assignments }) =>
            (assignments.get(topic)?.partitions ?? []).map((partition) => ({ memberId, partition })),
          );
          const expected = readers.length === 0 ? [] : [...Array(partitions[index]).keys()];
          assert.deepEqual(
            owners.map((owner) => owner.partition).sort((x, y) => x - y),
            expected,
            topic,
          );
          for (const owner of owners)
            assert.ok(readers.includes(owner.memberId), `${owner.memberId} reads ${topic}`);
          const counts = readers.map((reader) => owners.filter((owner) => owner.memberId === reader).length);
          if (counts.length > 0)
            assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `${topic}: ${counts.join(',')}`);
        }
      }),
    );
  });
});
