// `streamroute node`'s log format, as a person and a log shipper get it: run as a process of its own under
// a pseudo-terminal (util-linux `script`) it writes text lines, with `--log-format json` there JSON lines,
// and with stderr on a pipe JSON lines. In every run the node is sent bodies, a header and a host whose
// text carries a marker — a body that decodes, one that fails (a logged message error), an Authorization
// header, a path no route has — at debug level, and the marker reaches neither format.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { requirePeer, runs } from '../support/peers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MARK = 'Qx48213';

const TEXT_LINE =
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S/;

const NODE_ARGS = [
  'node',
  '--manifests',
  'examples/quickstart',
  '--http-listen-addr',
  '127.0.0.1:0',
  '--https-listen-addr',
  '127.0.0.1:0',
  '--admin-listen-addr',
  '127.0.0.1:0',
  '--log-level',
  'debug',
];

interface Run {
  child: ChildProcess;
  /** Everything the node wrote to its terminal, or to its stderr pipe. */
  log: () => string;
  /** The banner's line (stdout). */
  banner: () => string;
  stop: () => Promise<void>;
}

function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** The node under a pseudo-terminal: stdout and stderr are the terminal, stopped by ^C as a person would. */
function onTerminal(extra: readonly string[]): Run {
  const command = [process.execPath, '--import', 'tsx', 'operator/cli/main.ts', ...NODE_ARGS, ...extra]
    .map(shellWord)
    .join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, stdio: 'pipe' });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return {
    child,
    log: () => text,
    banner: () => text,
    stop: async () => {
      child.stdin.write('\x03');
      await exited(child);
    },
  };
}

/** The node with stderr on a pipe. */
function onPipe(extra: readonly string[]): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'operator/cli/main.ts', ...NODE_ARGS, ...extra], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return {
    child,
    log: () => err,
    banner: () => out,
    stop: async () => {
      child.kill('SIGINT');
      await exited(child);
    },
  };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function ports(run: Run): Promise<{ http: number }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = /HTTP 127\.0\.0\.1:(\d+) · admin/.exec(run.banner());
    if (found !== null) return { http: Number(found[1]) };
    if (run.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the node did not start:\n${run.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function post(
  port: number,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { host: 'localhost', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs a node, sends the marked traffic, stops it; the log's lines (terminal echo and banner left out). */
async function logOf(run: Run): Promise<string[]> {
  try {
    const { http } = await ports(run);
    assert.equal(await post(http, '/orders', JSON.stringify({ order_id: MARK, amount: 1 })), 202);
    assert.equal(await post(http, '/orders', `{"order_id": "${MARK}", "amount": "${MARK}"}`), 202);
    const secret = { authorization: `Bearer ${MARK}` };
    assert.equal(await post(http, '/orders', JSON.stringify({ order_id: 'A', amount: 2 }), secret), 202);
    // A path no route has (the host is not marked: the sampled refusal line names it, escaped; decision 0022).
    assert.equal(await post(http, `/${MARK}`, MARK), 404);
    assert.equal(await post(http, `/${MARK}`, MARK, { host: 'unknown.example' }), 404);
    // ^C flushes what the terminal holds unread (termios ISIG without NOFLSH): wait until `script` has
    // passed on both refusals' debug lines, or a loaded machine loses them.
    await logShows(run, /http_request_rejected[^]*http_request_rejected/);
  } finally {
    await run.stop();
  }
  return run
    .log()
    .split(/\r?\n/)
    .map((line) => line.replace(/^\^C/, ''))
    .filter((line) => line !== '' && !line.startsWith('streamroute node:'));
}

async function logShows(run: Run, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!pattern.test(run.log())) {
    if (Date.now() > deadline) throw new Error(`the log never showed ${pattern}:\n${run.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function assertNoMarker(lines: readonly string[]): void {
  const leaks = lines.filter((line) => line.includes(MARK) || line.includes('48213'));
  assert.deepEqual(leaks, [], 'a log line shows the marker');
}

describe('streamroute node: the log format on a terminal and on a pipe', function () {
  this.timeout(180_000);

  describe('under a pseudo-terminal', () => {
    before(function () {
      requirePeer(this, runs('script', ['-V']), "util-linux's script is not installed");
    });

    it('writes text lines by default: local time with offset, level, message, key=value', async () => {
      const lines = await logOf(onTerminal([]));
      assert.ok(lines.length > 5, lines.join('\n'));
      for (const line of lines) assert.match(line, TEXT_LINE);
      // The failed body was logged (so the marker check below looked at a message error).
      assert.ok(
        lines.some((line) => / WARN  message error .*code=SR3\d{3}/.test(line)),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((line) => / DEBUG request rejected .*status=404/.test(line)),
        lines.join('\n'),
      );
      assertNoMarker(lines);
    });

    it('writes JSON lines with --log-format json', async () => {
      const lines = await logOf(onTerminal(['--log-format', 'json']));
      const records = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      assert.ok(records.some((record) => record.level === 40 && record.msg.startsWith('message error')));
      assertNoMarker(lines);
    });
  });

  it('writes JSON lines when stderr is not a terminal', async () => {
    const lines = await logOf(onPipe([]));
    const records = lines.map((line) => JSON.parse(line) as { time: unknown; msg: string });
    assert.ok(records.length > 5);
    assert.ok(records.every((record) => typeof record.time === 'number'));
    assertNoMarker(lines);
  });

  it('writes text lines on a pipe with --log-format text', async () => {
    const lines = await logOf(onPipe(['--log-format', 'text']));
    for (const line of lines) assert.match(line, TEXT_LINE);
    assertNoMarker(lines);
  });

  it('refuses another --log-format, naming the flag and the choices', async () => {
    const run = onPipe(['--log-format', 'yaml']);
    await exited(run.child);
    assert.equal(run.child.exitCode, 2);
    assert.match(run.log(), /--log-format.*yaml.*json, text/);
  });
});
