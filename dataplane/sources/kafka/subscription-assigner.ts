// How partitions are assigned when one of our consumers leads its group (docs/kafka.md, "Rebalances and
// reloads"). @platformatic/kafka's own round robin hands every member partitions of the *leader's* topics
// only, whatever each member subscribed to: in a group whose members read different topics — two topic
// ingestors sharing a GROUP, or other applications' consumers in it — the topics the leader does not read
// got no owner at all, and members got partitions of topics they never asked for. This assigner gives each
// topic's partitions, round robin, to the members subscribed to it (as Kafka's own assignors do), in
// member id order, so every leader computes the same assignment.
import type { GroupPartitionsAssigner, GroupPartitionsAssignments } from '@platformatic/kafka';

export const subscriptionAssigner: GroupPartitionsAssigner = (_leader, members, _topics, metadata) => {
  const ids = [...members.keys()].sort();
  const result = new Map<string, GroupPartitionsAssignments>(
    ids.map((memberId) => [memberId, { memberId, assignments: new Map() }]),
  );
  const topics = new Set(ids.flatMap((memberId) => members.get(memberId)?.topics ?? []));
  for (const topic of [...topics].sort()) {
    const readers = ids.filter((memberId) => members.get(memberId)?.topics?.includes(topic));
    const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
    for (let partition = 0; partition < count; partition++) {
      const { assignments } = result.get(readers[partition % readers.length]!)!;
      const mine = assignments.get(topic) ?? { topic, partitions: [] };
      mine.partitions.push(partition);
      assignments.set(topic, mine);
    }
  }
  return [...result.values()];
};
