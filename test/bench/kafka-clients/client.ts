// What the Kafka client benchmark asks of each candidate library: one interface, one adapter per library.

export interface Delivered {
  partition: number;
  offset: bigint;
  /** Commits offset + 1 of this record's partition (the next one to read), as Kafka counts. */
  commit(): Promise<void>;
}

export interface ConsumerSpec {
  bootstrap: string;
  topic: string;
  group: string;
  /** false: nothing is committed unless a record's commit() is called. */
  autoCommit: boolean;
  /**
   * Called for every record, in order per partition; the next record waits for a returned promise
   * (so "processed" means the callback finished).
   */
  onRecord(record: Delivered): void | Promise<void>;
  security?: Security;
}

export interface Security {
  tlsCa: Buffer;
  mechanism: 'SCRAM-SHA-512' | 'SCRAM-SHA-256' | 'PLAIN';
  username: string;
  password: string;
}

export interface RunningConsumer {
  /** Leaves the group (commits nothing when autoCommit is false). */
  close(): Promise<void>;
  /** Stops fetching for every assigned partition while keeping the group membership. */
  pause(): void;
  resume(): void;
  /** Lag per partition (log end - committed), as the library reports it. */
  lag(): Promise<Map<number, bigint>>;
  /** How many times the group assignment of this member changed (joins after the first included). */
  readonly assignments: number;
}

export interface ProduceSpec {
  bootstrap: string;
  topic: string;
  count: number;
  valueSize: number;
  batch: number;
  inFlight: number;
  acks: 0 | 1 | -1;
  security?: Security;
}

export interface KafkaClient {
  name: string;
  version: string;
  consume(spec: ConsumerSpec): Promise<RunningConsumer>;
  /** Sends `count` keyed records in batches of `batch` with `inFlight` sends outstanding. */
  produce(spec: ProduceSpec): Promise<void>;
  /** Tries to send one record to an address nobody listens on; resolves with what the library said. */
  unreachable(bootstrap: string): Promise<{ ms: number; error: string }>;
}

export function keyOf(index: number): Buffer {
  return Buffer.from(`key-${index % 1000}`);
}
