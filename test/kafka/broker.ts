// Starts the test broker (test/fixtures/kafka-broker.ts) for a person to use, e.g. with examples/kafka:
//
//   npx tsx test/kafka/broker.ts [--port 9092] [--topics orders:3,orders-read:3]
//
// Fetches the jars first when they are missing (bash test/kafka/build.sh), creates the topics (name, and
// the partition count after a colon), prints the bootstrap address and runs until ^C, then stops the
// broker and removes its data.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startKafkaBroker } from '../fixtures/kafka-broker.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '9092' }, topics: { type: 'string', default: '' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port: ${values.port} is not a port number`);
  process.exit(2);
}
const topics = values.topics
  .split(',')
  .filter((entry) => entry !== '')
  .map((entry) => {
    const [name = '', partitions = '1'] = entry.split(':');
    if (name === '' || !/^[1-9][0-9]*$/.test(partitions)) {
      console.error(`--topics: ${entry} is not <name>[:<partitions>]`);
      process.exit(2);
    }
    return { name, partitions: Number(partitions) };
  });

execFileSync('bash', [join(import.meta.dirname, 'build.sh')], { stdio: 'inherit' });
const broker = await startKafkaBroker({ port });
for (const { name, partitions } of topics) await broker.createTopic(name, { partitions });
console.log(`Kafka serves on ${broker.bootstrap}${topics.length > 0 ? `; topics: ${values.topics}` : ''}`);
console.log('^C stops it and removes its data.');
// The broker's JVM does not hold this process open (the fixture unrefs it): an interval does, until a signal.
const alive = setInterval(() => undefined, 60_000);
const stop = (): void => {
  clearInterval(alive);
  void broker.stop().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
