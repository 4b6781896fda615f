import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { memoryLogger } from '../../test/fixtures/graph-from-statements.js';
import { removeDir, tempDir } from '../../test/fixtures/embedded-node.js';
import { VALID_SPECS } from '../../test/fixtures/valid-objects.js';
import { API_VERSION, type GraphObject } from '../api/index.js';
import { writeFileAtomic } from './atomic-file.js';
import { DataDir } from './data-dir.js';
import { DataDirError } from './data-dir-error.js';
import { EMPTY_STATE, type DomainState } from './domain-state.js';
import { ObjectStore } from './object-store.js';

const relay: GraphObject = {
  apiVersion: API_VERSION,
  kind: 'Relay',
  metadata: { name: 'orders', namespace: 'default' },
  spec: VALID_SPECS.Relay,
};

const STATE: DomainState = { ...EMPTY_STATE, statementObjects: [relay] };

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.ok(child.pid !== undefined);
  return child.pid;
}

describe('data dir', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir();
  });
  afterEach(() => removeDir(root));

  it('creates its layout and a lock holding the pid; close releases it', () => {
    const { logger } = memoryLogger();
    const dataDir = DataDir.open(join(root, 'data'), logger);
    assert.deepEqual(readdirSync(join(root, 'data')).sort(), ['domains', 'node.lock', 'resources']);
    assert.equal(readFileSync(join(root, 'data', 'node.lock'), 'utf8'), `${process.pid}\n`);
    dataDir.close();
    assert.equal(existsSync(join(root, 'data', 'node.lock')), false);
  });

  it('cannot be opened twice (a running node holds the lock)', () => {
    const { logger } = memoryLogger();
    const first = DataDir.open(root, logger);
    assert.throws(
      () => DataDir.open(root, logger),
      (error: unknown) =>
        error instanceof DataDirError &&
        error.message.startsWith(`the data dir is in use by another node (pid ${process.pid})`),
    );
    first.close();
    DataDir.open(root, logger).close();
  });

  for (const [title, content] of [
    ['of a pid that no longer runs', () => `${deadPid()}\n`],
    ['that holds no pid (a node died writing it)', () => ''],
  ] as const) {
    it(`takes over a stale lock ${title}, and says so`, () => {
      const { logger, logs } = memoryLogger();
      writeFileSync(join(root, 'node.lock'), content());
      const dataDir = DataDir.open(root, logger);
      assert.equal(readFileSync(join(root, 'node.lock'), 'utf8'), `${process.pid}\n`);
      assert.ok(logs.some((line) => line.msg === 'taking over the lock of a node that is no longer running'));
      dataDir.close();
    });
  }

  it('bug: a container restarted as PID 1 refused its own lock forever — a lock with our pid we did not take is stale', () => {
    const { logger, logs } = memoryLogger();
    // The process that died before the restart had the same pid (1 in a container): its lock holds ours.
    writeFileSync(join(root, 'node.lock'), `${process.pid}\n`);
    const dataDir = DataDir.open(root, logger);
    assert.equal(readFileSync(join(root, 'node.lock'), 'utf8'), `${process.pid}\n`);
    const takeover = logs.find(
      (line) => line.msg === 'taking over the lock of a node that is no longer running',
    );
    assert.ok(takeover !== undefined, 'the takeover is logged');
    assert.equal(takeover['stalePid'], process.pid);
    assert.throws(
      () => DataDir.open(root, logger),
      DataDirError,
      'once taken, it is ours: a second open refuses',
    );
    dataDir.close();
    assert.equal(existsSync(join(root, 'node.lock')), false);
  });

  it('bug: two nodes taking over one stale lock could both hold it — a lock taken meanwhile is given back', () => {
    const lock = join(root, 'node.lock');
    writeFileSync(lock, `${deadPid()}\n`);
    // Another node (our parent process: it runs) takes the stale lock over between this node's reading
    // of the lock and its own takeover — at the moment it logs that it takes the lock over.
    const other = process.ppid;
    const logger = pino(
      { level: 'warn' },
      {
        write: (line: string) => {
          if (
            (JSON.parse(line) as { msg: string }).msg !==
            'taking over the lock of a node that is no longer running'
          )
            return;
          if (readFileSync(lock, 'utf8') === `${other}\n`) return;
          rmSync(lock);
          writeFileSync(lock, `${other}\n`);
        },
      },
    );
    assert.throws(
      () => DataDir.open(root, logger),
      (error: unknown) =>
        error instanceof DataDirError &&
        error.message.startsWith(`the data dir is in use by another node (pid ${other})`),
    );
    assert.equal(readFileSync(lock, 'utf8'), `${other}\n`, 'the other node keeps its lock');
    assert.deepEqual(
      readdirSync(root).filter((name) => name.includes('lock')),
      ['node.lock'],
      'no temporary or stale file left',
    );
  });

  it('bug: a data dir that cannot be read stopped the node with a stack trace — now a DataDirError naming it', () => {
    const { logger } = memoryLogger();
    const dataDir = DataDir.open(root, logger);
    rmSync(join(root, 'domains'), { recursive: true });
    assert.throws(
      () => ObjectStore.open(dataDir),
      (error: unknown) =>
        error instanceof DataDirError &&
        error.message === `cannot read ${join(root, 'domains')}: no such file or directory`,
    );
    dataDir.close();
  });

  it('writes a domain state atomically, readable by its owner only, and reads it back', async () => {
    const { logger } = memoryLogger();
    const dataDir = DataDir.open(root, logger);
    await dataDir.writeDomainState('team-a', STATE);
    const file = join(root, 'domains', 'team-a', 'state.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(root, 'domains', 'team-a')), ['state.json'], 'no temporary file left');
    assert.deepEqual(dataDir.readDomainState('team-a'), STATE);
    assert.deepEqual(dataDir.domainNames(), ['team-a']);
    dataDir.close();
  });

  it('deletes temporary files a crash left, and keeps the state it had', async () => {
    const { logger } = memoryLogger();
    const first = DataDir.open(root, logger);
    await first.writeDomainState('default', STATE);
    first.close();
    // A crash between writing the temporary file and renaming it.
    const leftover = join(root, 'domains', 'default', '.state.json.tmp-123-abcd');
    writeFileSync(leftover, '{"format": 1, "half');
    const { logger: second, logs } = memoryLogger();
    const dataDir = DataDir.open(root, second);
    assert.equal(existsSync(leftover), false);
    assert.ok(
      logs.some((line) => line.msg === 'removed a temporary file left by a crash' && line.file === leftover),
    );
    assert.deepEqual(ObjectStore.open(dataDir).objects('default'), [relay]);
    dataDir.close();
  });

  const corrupt: { title: string; text: string; message: RegExp }[] = [
    {
      title: 'not JSON',
      text: '{"format": 1, "a": MARKER}',
      message: /state\.json is not valid JSON \(.*\); restore it/,
    },
    {
      title: 'another format',
      text: '{"format": "MARKER-7"}',
      message:
        /state\.json is not a domain state the node wrote: is not in format 1, the one this node writes/,
    },
    {
      title: 'one object listed twice (a hand edit)',
      text: JSON.stringify({ ...STATE, format: 1, statementObjects: [relay, { ...relay }] }),
      message:
        /state\.json is not a domain state the node wrote: statementObjects\[1\] has the kind and name of statementObjects\[0\]/,
    },
    {
      title: 'an object with a field its kind does not know',
      text: JSON.stringify({
        ...STATE,
        format: 1,
        statementObjects: [{ ...relay, spec: { ...relay.spec, MARKER: 1 } }],
      }),
      message:
        /state\.json is not a domain state the node wrote: statementObjects\[0\] spec has a field its kind does not know/,
    },
    {
      title: 'an object that does not fit its kind',
      text: JSON.stringify({ ...STATE, format: 1, statementObjects: [{ ...relay, spec: {} }] }),
      message: /state\.json is not a domain state the node wrote: statementObjects\[0\] spec\.schema/,
    },
  ];
  for (const { title, text, message } of corrupt) {
    it(`refuses to start over a state file that is ${title}, naming the file and quoting none of it`, () => {
      mkdirSync(join(root, 'domains', 'default'), { recursive: true });
      writeFileSync(join(root, 'domains', 'default', 'state.json'), text);
      const { logger } = memoryLogger();
      const dataDir = DataDir.open(root, logger);
      assert.throws(
        () => ObjectStore.open(dataDir),
        (error: unknown) =>
          error instanceof DataDirError &&
          error.message.startsWith(join(root, 'domains', 'default', 'state.json')) &&
          message.test(error.message) &&
          !error.message.includes('MARKER'),
      );
      dataDir.close();
    });
  }

  it('ignores entries under domains/ that are not domains, and says so', () => {
    mkdirSync(join(root, 'domains', 'Not_A_Domain'), { recursive: true });
    const { logger, logs } = memoryLogger();
    const dataDir = DataDir.open(root, logger);
    assert.deepEqual(dataDir.domainNames(), []);
    assert.equal(logs.filter((line) => line.msg === 'ignoring an entry that is not a domain').length, 1);
    dataDir.close();
  });

  it('replaces a file whole: a reader sees the old contents or the new, never a mix', async () => {
    const file = join(root, 'x.json');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, 'new');
    assert.equal(readFileSync(file, 'utf8'), 'new');
    assert.deepEqual(readdirSync(root), ['x.json']);
  });
});
