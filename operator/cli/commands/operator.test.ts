import assert from 'node:assert/strict';
import { Command } from 'commander';
import { pino } from 'pino';
import { runCli } from '../program.js';
import type { Output } from '../../client/report.js';
import { addOperatorCommand, liveConfig, operatorConfig, type OperatorOptions } from './operator.js';

function capture(): Output & { errors: string[] } {
  const errors: string[] = [];
  return { errors, out: () => undefined, err: (text) => errors.push(text) };
}

function parsed(argv: string[], env: Record<string, string> = {}): OperatorOptions {
  const program = new Command().exitOverride();
  addOperatorCommand(program, capture(), () => undefined, { env });
  const command = program.commands.find((candidate) => candidate.name() === 'operator');
  assert.ok(command);
  command.configureOutput({ writeErr: () => undefined });
  command.parseOptions(argv);
  return command.opts<OperatorOptions>();
}

const logger = pino({ level: 'silent' });

describe('streamroute operator flags', () => {
  it('defaults: leader election on, 10 versions, 50 QPS burst 100, health on 0.0.0.0:8082', () => {
    const config = operatorConfig(parsed([], { POD_NAMESPACE: 'ops', POD_NAME: 'op-0' }), logger);
    assert.equal(config.namespace, 'ops');
    assert.equal(config.keepVersions, 10);
    assert.deepEqual(config.rateLimit, { qps: 50, burst: 100 });
    assert.deepEqual(config.healthAddress, { host: '0.0.0.0', port: 8082 });
    assert.deepEqual(config.leaderElection, { name: 'streamroute-operator', identity: 'op-0' });
    assert.equal(config.watchNamespaces, undefined);
    assert.equal(config.kubeconfig, undefined);
  });

  it('--log-format is json or text, and absent unless given (stderr decides)', () => {
    assert.equal(parsed([]).logFormat, undefined);
    assert.equal(parsed(['--log-format', 'text']).logFormat, 'text');
    assert.equal(parsed(['--log-format', 'json']).logFormat, 'json');
    assert.throws(() => parsed(['--log-format', 'logfmt']), /--log-format.*logfmt.*json, text/);
  });

  it('without POD_NAMESPACE the namespace is streamroute-system', () => {
    assert.equal(operatorConfig(parsed([]), logger).namespace, 'streamroute-system');
  });

  it('reads every flag', () => {
    const options = parsed([
      '--kubeconfig',
      '/k',
      '--context',
      'c',
      '--namespace',
      'n',
      '--watch-namespaces',
      'a, b,',
      '--keep-versions',
      '3',
      '--no-leader-elect',
      '--health-listen-addr',
      '127.0.0.1:9000',
      '--qps',
      '2.5',
      '--burst',
      '7',
    ]);
    const config = operatorConfig(options, logger);
    assert.equal(config.kubeconfig, '/k');
    assert.equal(config.context, 'c');
    assert.equal(config.namespace, 'n');
    assert.deepEqual(config.watchNamespaces, ['a', 'b']);
    assert.equal(config.keepVersions, 3);
    assert.equal(config.leaderElection, undefined);
    assert.deepEqual(config.healthAddress, { host: '127.0.0.1', port: 9000 });
    assert.deepEqual(config.rateLimit, { qps: 2.5, burst: 7 });
  });

  it('--lease-name and --identity name the lease and this replica', () => {
    const config = operatorConfig(parsed(['--lease-name', 'l', '--identity', 'me']), logger);
    assert.deepEqual(config.leaderElection, { name: 'l', identity: 'me' });
  });

  for (const argv of [
    ['--qps', '0'],
    ['--burst', '1.5'],
    ['--keep-versions', 'x'],
    ['--health-listen-addr', 'localhost:1'],
  ]) {
    it(`${argv.join(' ')} is a usage error (exit 2)`, async () => {
      const output = capture();
      assert.equal(await runCli(['operator', ...argv], output, { signal: AbortSignal.abort() }), 2);
      assert.match(output.errors.join('\n'), new RegExp(argv[0] ?? ''));
    });
  }

  it('an unreadable kubeconfig is exit 3 with one line', async () => {
    const output = capture();
    const code = await runCli(['operator', '--kubeconfig', '/nonexistent/kubeconfig'], output, {
      signal: AbortSignal.abort(),
    });
    assert.equal(code, 3);
    assert.match(output.errors.join('\n'), /streamroute operator: cannot start/);
  });

  describe('the live API flags', () => {
    const live = [
      '--live-listen-addr',
      '0.0.0.0:9443',
      '--live-tls-cert-file',
      'c',
      '--live-tls-key-file',
      'k',
    ];
    const internal = [
      '--internal-ca-file',
      'ca',
      '--internal-client-cert-file',
      'oc',
      '--internal-client-key-file',
      'ok',
    ];

    it('are off without --live-listen-addr; with the internal files, reach the pods over them', () => {
      assert.equal(liveConfig(parsed([])), undefined);
      assert.deepEqual(liveConfig(parsed([...live, ...internal])), {
        address: { host: '0.0.0.0', port: 9443 },
        certFile: 'c',
        keyFile: 'k',
        reauthorizeMs: 60_000,
        maxStreamMs: 3_600_000,
        internal: { caFile: 'ca', certFile: 'oc', keyFile: 'ok', serverName: 'streamroute-dataplane' },
      });
    });

    const refused: [string[], RegExp][] = [
      [['--live-listen-addr', '0.0.0.0:9443'], /go together/],
      [[...live.slice(0, 2), '--live-listen-addr', 'nowhere', ...live.slice(2)], /--live-listen-addr/],
      [internal, /give --live-listen-addr/],
      [
        [...live, ...internal.slice(0, 2)],
        /--internal-ca-file, --internal-client-cert-file and --internal-client-key-file go together/,
      ],
      [
        [...live, '--live-reauthorize-seconds', '0'],
        /--live-reauthorize-seconds "0": expected a positive number/,
      ],
      [[...live, '--live-max-stream-seconds', 'soon'], /--live-max-stream-seconds "soon"/],
    ];
    for (const [argv, message] of refused) {
      it(`refuses ${argv.join(' ')} with a usage error naming the flag`, () => {
        assert.throws(() => liveConfig(parsed(argv)), message);
      });
    }
  });
});
