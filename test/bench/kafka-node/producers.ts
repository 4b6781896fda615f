// The Kafka node benchmark's producers (@platformatic/kafka, in the driver's process): a batched prefill
// of JSON orders, and a steady producer that stamps each order with its send time for the latency run.
import { Producer, type MessageToProduce } from '@platformatic/kafka';
import { orderMessage, wallMicros } from './graph.js';

type Message = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

const keyOf = (index: number) => Buffer.from(`key-${index % 1000}`);

/**
 * `count` keyed orders in batches of 1,000, one send at a time; records/s. Idempotent (so acks=all): a
 * batch the library sends again after a timeout on a busy machine is stored once, and the topic holds
 * exactly `count` (a run once stored 533 more with acks=1). One at a time because the library numbers an
 * idempotent batch when the one before it is acknowledged: concurrent sends were refused as out of order.
 */
export async function prefill(bootstrap: string, topic: string, count: number): Promise<number> {
  const producer = new Producer({
    clientId: 'bench-prefill',
    bootstrapBrokers: [bootstrap],
    idempotent: true,
  });
  const started = performance.now();
  try {
    for (let next = 0; next < count;) {
      const messages: Message[] = [];
      for (const end = Math.min(next + 1000, count); next < end; next++)
        messages.push({ topic, key: keyOf(next), value: orderMessage(next, wallMicros()) });
      await producer.send({ messages });
    }
  } finally {
    await producer.close();
  }
  return count / ((performance.now() - started) / 1000);
}

const TICK_MS = 5;

export interface SteadyRun {
  sent: number;
  /** From a send to the broker's acknowledgement, ms. */
  ackP50Ms: number;
  ackP99Ms: number;
}

/**
 * Orders at `rate` per second for `seconds`, acks=1: every TICK_MS the orders due by then (rate × 5 ms)
 * go in one request, each stamped with the wall clock just before its send. Sends are not awaited one
 * after another; the library keeps five requests in flight per connection and queues the rest, so few
 * larger requests leave room when acknowledgements slow down (that queueing would be the driver's, not
 * the node's, and shows in the acknowledgement times returned).
 */
export async function steady(
  bootstrap: string,
  topic: string,
  { rate, seconds }: { rate: number; seconds: number },
): Promise<SteadyRun> {
  const producer = new Producer({ clientId: 'bench-steady', bootstrapBrokers: [bootstrap], acks: 1 });
  const total = Math.round(rate * seconds);
  const pending = new Set<Promise<unknown>>();
  const acks: number[] = [];
  let sent = 0;
  try {
    await producer.metadata({ topics: [topic] });
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
        const messages: Message[] = [];
        for (; sent < due; sent++)
          messages.push({ topic, key: keyOf(sent), value: orderMessage(sent, wallMicros()) });
        if (messages.length > 0) {
          const sentAt = performance.now();
          const send = producer.send({ messages }).then(() => acks.push(performance.now() - sentAt));
          pending.add(send);
          send.then(() => pending.delete(send), reject);
        }
        if (sent >= total) {
          clearInterval(timer);
          resolve();
        }
      }, TICK_MS);
    });
    await Promise.all(pending);
  } finally {
    await producer.close();
  }
  acks.sort((a, b) => a - b);
  const at = (q: number) => acks[Math.min(acks.length - 1, Math.floor(q * acks.length))] ?? NaN;
  return { sent, ackP50Ms: at(0.5), ackP99Ms: at(0.99) };
}
