// The measured runs and correctness checks of the Kafka client benchmark, each against the real broker.
import type { KafkaBroker } from '../../fixtures/kafka-broker.js';
import type { KafkaClient, RunningConsumer } from './client.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which offsets of each partition arrived, and how many arrived twice or more. */
export class Seen {
  readonly marks: Uint8Array[];
  distinct = 0;
  duplicates = 0;
  constructor(readonly ends: Map<number, number>) {
    this.marks = [...ends.keys()].sort((a, b) => a - b).map((p) => new Uint8Array(ends.get(p) ?? 0));
  }
  get total(): number {
    return [...this.ends.values()].reduce((a, b) => a + b, 0);
  }
  mark(partition: number, offset: bigint): void {
    const marks = this.marks[partition];
    const at = Number(offset);
    if (!marks || at >= marks.length) return;
    if (marks[at] === 1) this.duplicates++;
    else {
      marks[at] = 1;
      this.distinct++;
    }
  }
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(5);
  }
}

export interface ConsumeRun {
  recordsPerSec: number;
  /** From the first record to the last (group join and first fetch excluded). */
  fetchRecordsPerSec: number;
  duplicates: number;
  /** Records each consumer received. */
  shares: number[];
}

/** `consumers` consumers in a fresh group read the whole topic from the earliest offset (auto-commit). */
export async function consumeAll(
  client: KafkaClient,
  broker: KafkaBroker,
  { topic, consumers, group }: { topic: string; consumers: number; group: string },
): Promise<ConsumeRun> {
  const seen = new Seen(await broker.endOffsets(topic));
  const shares = Array.from({ length: consumers }, () => 0);
  let first = 0;
  const started = performance.now();
  const running = await Promise.all(
    shares.map((_, index) =>
      client.consume({
        bootstrap: broker.bootstrap,
        topic,
        group,
        autoCommit: true,
        onRecord: (record) => {
          if (first === 0) first = performance.now();
          shares[index] = (shares[index] ?? 0) + 1;
          seen.mark(record.partition, record.offset);
        },
      }),
    ),
  );
  let ended = 0;
  try {
    await until(() => seen.distinct === seen.total, 300_000, `${client.name} reading ${topic}`);
  } finally {
    ended = performance.now();
    await Promise.all(running.map((c) => c.close()));
  }
  return {
    recordsPerSec: seen.total / ((ended - started) / 1000),
    fetchRecordsPerSec: seen.total / ((ended - first) / 1000),
    duplicates: seen.duplicates,
    shares,
  };
}

/** Batched produce of `count` 100-byte keyed records to a fresh 4-partition topic; checks the count. */
export async function produceAll(
  client: KafkaClient,
  broker: KafkaBroker,
  { topic, count, acks }: { topic: string; count: number; acks: 0 | 1 | -1 },
): Promise<number> {
  await broker.createTopic(topic, { partitions: 4 });
  const started = performance.now();
  await client.produce({
    bootstrap: broker.bootstrap,
    topic,
    count,
    valueSize: 100,
    batch: 1000,
    inFlight: 4,
    acks,
  });
  const ms = performance.now() - started;
  const stored = [...(await broker.endOffsets(topic)).values()].reduce((a, b) => a + b, 0);
  if (acks !== 0 && stored !== count) throw new Error(`${client.name}: ${stored} of ${count} records stored`);
  return count / (ms / 1000);
}

export interface RebalanceRun {
  total: number;
  lost: number;
  duplicates: number;
  /** Assignment changes seen by the member that stayed. */
  rebalancesSeenByA: number;
}

/**
 * At-least-once through rebalances: A and B share a group with manual commits (every 50th record of a
 * partition, so a revoked partition re-delivers up to 49); processing is throttled (~5k records/s per
 * member) so the group changes mid-stream: after 20% B leaves, after 50% C joins. Every offset must
 * arrive at least once.
 */
export async function rebalance(
  client: KafkaClient,
  broker: KafkaBroker,
  topic: string,
): Promise<RebalanceRun> {
  const seen = new Seen(await broker.endOffsets(topic));
  const group = `rebalance-${client.name.replace(/\W/g, '')}`;
  let processed = 0;
  const events: Promise<unknown>[] = [];
  const members: { b?: RunningConsumer } = {};
  const member = () =>
    client.consume({
      bootstrap: broker.bootstrap,
      topic,
      group,
      autoCommit: false,
      onRecord: async (record) => {
        seen.mark(record.partition, record.offset);
        processed++;
        if (processed % 10 === 0) await sleep(2);
        if (record.offset % 50n === 49n) await record.commit().catch(() => undefined); // revoked meanwhile
        if (processed === Math.floor(seen.total / 5) && members.b) events.push(members.b.close());
        if (processed === Math.floor(seen.total / 2)) events.push(member());
      },
    });
  const a = await member();
  members.b = await member();
  try {
    await until(() => seen.distinct === seen.total, 180_000, `${client.name} rebalance run`);
  } catch {
    // reported as lost records
  }
  const rebalancesSeenByA = a.assignments;
  const c = (await Promise.all(events)).find(
    (e): e is RunningConsumer => typeof e === 'object' && e !== null,
  );
  await Promise.all([a.close(), c?.close()]);
  return {
    total: seen.total,
    lost: seen.total - seen.distinct,
    duplicates: seen.duplicates,
    rebalancesSeenByA,
  };
}

export interface AtLeastOnceRun {
  committedByTool: number | undefined;
  firstRedelivered: bigint | undefined;
  redelivered: number;
  expected: string;
}

/**
 * Commit after processing, then a consumer that closes without committing: 0–49 processed and committed,
 * 50–59 processed and not committed. The next member of the group must start at 50.
 */
export async function atLeastOnce(
  client: KafkaClient,
  broker: KafkaBroker,
  topic: string,
): Promise<AtLeastOnceRun> {
  const group = `alo-${client.name.replace(/\W/g, '')}`;
  let processedUpTo = -1n;
  const first = await client.consume({
    bootstrap: broker.bootstrap,
    topic,
    group,
    autoCommit: false,
    onRecord: async (record) => {
      if (record.offset >= 60n) return; // fetched, not processed
      processedUpTo = record.offset;
      if (record.offset < 50n) await record.commit();
    },
  });
  await until(() => processedUpTo === 59n, 60_000, `${client.name} processing 0–59`);
  await first.close();
  const committedByTool = (await broker.committedOffsets(group, topic)).get(0);
  const again: bigint[] = [];
  const second = await client.consume({
    bootstrap: broker.bootstrap,
    topic,
    group,
    autoCommit: false,
    onRecord: (record) => {
      again.push(record.offset);
    },
  });
  await until(() => again.includes(99n), 60_000, `${client.name} reading to the end`);
  await second.close();
  return {
    committedByTool,
    firstRedelivered: again[0],
    redelivered: again.filter((o) => o < 60n).length,
    expected: 'committed 50, first 50, 10 redelivered',
  };
}

export interface PauseRun {
  receivedWhilePaused: number;
  rejoinedWhilePaused: boolean;
  lagWhilePaused: string;
  allAfterResume: boolean;
}

/** Pauses for longer than the session timeout (10 s): no records, no rebalance, then everything. */
export async function pauseResume(
  client: KafkaClient,
  broker: KafkaBroker,
  topic: string,
): Promise<PauseRun> {
  const seen = new Seen(await broker.endOffsets(topic));
  const handle: { running?: RunningConsumer } = {};
  let paused = false;
  let whilePaused = 0;
  const running = await client.consume({
    bootstrap: broker.bootstrap,
    topic,
    group: `pause-${client.name.replace(/\W/g, '')}`,
    autoCommit: true,
    onRecord: (record) => {
      if (paused) whilePaused++;
      seen.mark(record.partition, record.offset);
      if (seen.distinct === 500) {
        handle.running?.pause();
        paused = true;
      }
    },
  });
  handle.running = running;
  if (paused) running.pause(); // reached 500 before the handle was set
  await until(() => paused, 60_000, `${client.name} first 500 records`);
  const assignmentsAtPause = running.assignments;
  await sleep(1000); // records already handed over may still arrive
  const graceCount = whilePaused;
  await sleep(11_000);
  const lag = await running.lag();
  const rejoined = running.assignments !== assignmentsAtPause;
  paused = false;
  running.resume();
  let allAfterResume = true;
  try {
    await until(() => seen.distinct === seen.total, 60_000, `${client.name} after resume`);
  } catch {
    allAfterResume = false;
  }
  await running.close();
  return {
    receivedWhilePaused: whilePaused - graceCount,
    rejoinedWhilePaused: rejoined,
    lagWhilePaused: [...lag].map(([p, l]) => `${p}:${l}`).join(' '),
    allAfterResume,
  };
}
