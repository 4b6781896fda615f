import assert from 'node:assert/strict';
import type { ComponentDescription } from '../../dataplane/core/status.js';
import {
  CapturedOutput,
  replyJson,
  startCannedNode,
  type CannedHandler,
  type CannedNode,
} from '../../test/support/canned-node.js';
import { describeText } from '../node/describe-text.js';
import { runCli } from '../cli/program.js';
import { EXIT } from './report.js';

const EMITTER: ComponentDescription = {
  domain: 'prod',
  kind: 'emitter',
  name: 'to-siem',
  graphVersion: 4,
  state: 'Retrying',
  transientError: { code: 'ECONNREFUSED', message: 'connection refused', since: '2025-01-02T03:04:05Z' },
  backoffMs: 2000,
  metrics: { records_in: 10, records_out: 7 },
  details: { addr: 'siem:6514', transport: 'tls' },
};

describe('streamroute describe', () => {
  let node: CannedNode | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  async function describeOn(handler: CannedHandler, argv: string[]) {
    await node?.close();
    node = await startCannedNode(handler);
    const output = new CapturedOutput();
    const code = await runCli(['--server', node.url, ...argv], output);
    return { code, output, requests: node.requests };
  }

  const found: CannedHandler = (_request, response) => replyJson(response, 200, EMITTER);

  it('prints what DESCRIBE prints; the name is an identifier, mapped', async () => {
    const { code, output, requests } = await describeOn(found, [
      '-d',
      'prod',
      'describe',
      'EMITTER',
      'to_siem',
    ]);
    assert.equal(code, EXIT.ok, output.stderr);
    assert.equal(requests[0]?.url, '/v1/domains/prod/emitters/to-siem');
    assert.equal(output.stdout, `${describeText(EMITTER)}\n`);
    assert.match(output.stdout, /^emitter to-siem \(domain prod, graph version 4\)\nstate: Retrying\n/);
  });

  it('takes the resource name as well (decision 0025): to-siem asks for the same emitter', async () => {
    const { code, requests } = await describeOn(found, ['-d', 'prod', 'describe', 'emitter', 'to-siem']);
    assert.equal(code, EXIT.ok);
    assert.equal(requests[0]?.url, '/v1/domains/prod/emitters/to-siem');
  });

  it('names what it did not find as it was typed, and prints the display name of what it found', async () => {
    const missing: CannedHandler = (_request, response) =>
      replyJson(response, 404, {
        error: { code: 'unknown_component', message: 'domain prod has no emitter to-siem on this node' },
      });
    const absent = await describeOn(missing, ['-d', 'prod', 'describe', 'emitter', 'To_Siem']);
    assert.equal(absent.code, EXIT.invalid);
    assert.equal(
      absent.output.stderr,
      'streamroute: there is no emitter To_Siem in domain prod on this node\n',
    );
    const shown: CannedHandler = (_request, response) =>
      replyJson(response, 200, { ...EMITTER, displayName: 'To_Siem' });
    const present = await describeOn(shown, ['-d', 'prod', 'describe', 'emitter', 'to-siem']);
    assert.match(present.output.stdout, /^emitter To_Siem \(domain prod, graph version 4\)\n/);
  });

  it('-o json and --json print the Description document with the node’s description', async () => {
    const expected = {
      apiVersion: 'streamroute.io/cli/v1',
      kind: 'Description',
      domain: 'prod',
      target: 'node',
      description: EMITTER,
    };
    for (const flags of [['--json'], ['-o', 'json'], ['--output=json']]) {
      const argv = ['describe', 'ingestor', 'web', ...flags, '-d', 'prod'];
      const { code, output, requests } = await describeOn(found, argv);
      assert.equal(code, EXIT.ok, output.stderr);
      assert.equal(requests[0]?.url, '/v1/domains/prod/ingestors/web');
      assert.deepEqual(JSON.parse(output.stdout), expected);
      assert.deepEqual(Object.keys(JSON.parse(output.stdout) as object), Object.keys(expected), 'key order');
    }
  });

  it('-o before the command works as after it; -o wide is the table; an unknown format is exit 2', async () => {
    const yaml = await describeOn(found, ['-o', 'yaml', 'describe', 'emitter', 'to_siem']);
    assert.equal(yaml.code, EXIT.ok, yaml.output.stderr);
    assert.match(yaml.output.stdout, /^apiVersion: streamroute\.io\/cli\/v1\nkind: Description\n/);
    const wide = await describeOn(found, ['describe', 'emitter', 'to_siem', '-o', 'wide']);
    assert.equal(wide.output.stdout, `${describeText(EMITTER)}\n`);
    for (const argv of [
      ['describe', 'emitter', 'to_siem', '-o', 'xml'],
      ['describe', 'emitter', 'to_siem', '-o', 'yaml', '--json'],
    ]) {
      const refused = await describeOn(found, argv);
      assert.equal(refused.code, EXIT.usage, argv.join(' '));
      assert.equal(refused.requests.length, 0);
    }
  });

  it('not there (404): the node’s message, exit 1', async () => {
    const { code, output } = await describeOn(
      (_request, response) =>
        replyJson(response, 404, {
          error: { code: 'not_found', message: 'domain default has no ingestor web' },
        }),
      ['describe', 'ingestor', 'web'],
    );
    assert.equal(code, EXIT.invalid);
    assert.equal(output.stderr, 'streamroute: domain default has no ingestor web\n');
  });

  it('a description of another shape is not the protocol: exit 3', async () => {
    const { code, output } = await describeOn(
      (_request, response) => replyJson(response, 200, { ...EMITTER, metrics: { records_in: '10' } }),
      ['describe', 'emitter', 'e'],
    );
    assert.equal(code, EXIT.io);
    assert.match(output.stderr, /does not fit the protocol \(metrics\.records_in: expected a number\)/);
  });

  it('a kind other than ingestor or emitter, or a name that is neither an identifier nor a resource name: exit 2, nothing sent', async () => {
    for (const argv of [
      ['describe', 'relay', 'r'],
      ['describe', 'emitter', 'trailing_'],
      ['describe', 'emitter', 'to--'],
      ['describe', 'emitter', '9siem'],
    ]) {
      const { code, requests } = await describeOn(found, argv);
      assert.equal(code, EXIT.usage, argv.join(' '));
      assert.equal(requests.length, 0);
    }
  });
});
