import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { runCli } from './program.js';
import { EXIT, type Output } from './report.js';

const ROOT = join(import.meta.dirname, '..', '..');
const QUICKSTART = join(ROOT, 'examples', 'quickstart');
const TESTDATA = join(import.meta.dirname, 'testdata');

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const output: Output = { out: (text) => (out += text), err: (text) => (err += text) };
  const code = await runCli(argv, output);
  return { code, out, err };
}

describe('streamroute CLI', () => {
  it('validates the quickstart example', async () => {
    const result = await cli('validate', QUICKSTART);
    assert.equal(result.code, EXIT.ok, result.err);
    assert.match(result.out, /^valid: \d+ objects in domain default/);
  });

  it('converts statements to YAML that show-create turns back into the same statements', async () => {
    const converted = await cli('convert', join(QUICKSTART, 'graph.sql'));
    assert.equal(converted.code, EXIT.ok, converted.err);
    const documents = parseAllDocuments(converted.out);
    assert.ok(Array.isArray(documents) && documents.length > 3);
    assert.ok(documents.every((document) => document.get('apiVersion') === 'streamroute.io/v1alpha1'));
  });

  it('sets the namespace with -n', async () => {
    const converted = await cli('convert', '-n', 'team-a', join(QUICKSTART, 'graph.sql'));
    for (const document of parseAllDocuments(converted.out) as { getIn(path: string[]): unknown }[]) {
      assert.equal(document.getIn(['metadata', 'namespace']), 'team-a');
    }
  });

  it('compiles to a Graph', async () => {
    const result = await cli('compile', QUICKSTART);
    assert.equal(result.code, EXIT.ok, result.err);
    assert.equal((JSON.parse(result.out) as { apiVersion: string }).apiVersion, 'streamroute.io/graph/v1');
  });

  it('reports every error with FILE:LINE:COL and exits 1', async () => {
    const result = await cli('validate', join(TESTDATA, 'broken.sql'));
    assert.equal(result.code, EXIT.invalid);
    assert.match(result.err, /broken\.sql:4:\d+: error SR1001: /);
    assert.match(result.err, /broken\.sql:3:\d+: error SR2001: .*order/);
    assert.equal(result.out, '');
  });

  it('rejects YAML that is not a streamroute resource', async () => {
    const result = await cli('validate', join(TESTDATA, 'not-ours.yaml'));
    assert.equal(result.code, EXIT.invalid);
    assert.match(result.err, /not-ours\.yaml:1:\d+: error SR1011: /);
  });

  it('converts statement files as one script, so an ALTER may change an object of another file', async () => {
    const result = await cli('convert', join(TESTDATA, 'split'));
    assert.equal(result.code, EXIT.ok, result.err);
    const relay = parseAllDocuments(result.out).find((document) => document.get('kind') === 'Relay');
    assert.equal(relay?.getIn(['spec', 'schema']), 'audit');
  });

  it('reports an object declared both in statements and in YAML, pointing at both', async () => {
    const result = await cli(
      'validate',
      join(TESTDATA, 'split', '1-declare.sql'),
      join(TESTDATA, 'twice.yaml'),
    );
    assert.equal(result.code, EXIT.invalid);
    assert.match(result.err, /twice\.yaml:4:\d+: error SR1014: .*first declared at .*1-declare\.sql:2:/);
  });

  it('refuses YAML where convert expects statements', async () => {
    const result = await cli('convert', join(TESTDATA, 'not-ours.yaml'));
    assert.equal(result.code, EXIT.io);
    assert.match(result.err, /expected statements/);
  });

  it('exits 3 for a missing file and 2 for a wrong command line', async () => {
    assert.equal((await cli('validate', '/no/such/file.sql')).code, EXIT.io);
    assert.equal((await cli('frobnicate')).code, EXIT.usage);
    assert.equal((await cli('compile', '--resource', 'not a spec')).code, EXIT.usage);
  });

  it('documents exit codes in --help', async () => {
    const result = await cli('--help');
    assert.equal(result.code, EXIT.ok);
    assert.match(result.out, /Exit status: 0 success; 1 the input has errors/);
  });

  it('prints every CRD', async () => {
    const result = await cli('crds');
    const kinds = parseAllDocuments(result.out).map((document) => document.getIn(['spec', 'names', 'kind']));
    assert.equal(kinds.length, 14);
    assert.ok(kinds.includes('Codec'));
  });

  it('as a process: stops quietly when the reader closes the pipe early', () => {
    const run = spawnSync(
      'bash',
      ['-o', 'pipefail', '-c', `"${process.execPath}" --import tsx operator/cli/main.ts crds | head -c 10`],
      {
        encoding: 'utf8',
        cwd: ROOT,
      },
    );
    assert.equal(run.stdout, '# Generate');
    assert.doesNotMatch(run.stderr, /EPIPE|\n\s+at /);
    assert.equal(run.status, 0, run.stderr);
  });

  it('as a process: results on stdout, diagnostics on stderr, exit status', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'operator/cli/main.ts'), 'validate', join(TESTDATA, 'broken.sql')],
      {
        encoding: 'utf8',
        cwd: ROOT,
      },
    );
    assert.equal(run.status, EXIT.invalid, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /error SR1001/);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });
});
