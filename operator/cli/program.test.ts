import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { InputError } from '../language/input-error.js';
import { formatOf, readInput } from '../language/inputs.js';
import { runCli } from './program.js';
import { EXIT, type Output } from '../client/report.js';

const ROOT = join(import.meta.dirname, '..', '..');
const QUICKSTART = join(ROOT, 'examples', 'quickstart');
const TESTDATA = join(import.meta.dirname, 'testdata');

const scratch = mkdtempSync(join(tmpdir(), 'streamroute-cli-'));
const otherUsersCoverage = mkdtempSync(join(tmpdir(), 'streamroute-coverage-'));
after(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(otherUsersCoverage, { recursive: true, force: true });
});

function scratchFile(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/**
 * Runs the CLI as a process that cannot read files with mode 000: as the user `nobody` when the tests
 * run as root (root reads any file), as the current user otherwise.
 */
function runAsUser(args: string[]) {
  const asRoot = process.getuid?.() === 0;
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'operator/cli/main.ts'), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    // Node hands NODE_V8_COVERAGE (set by c8) to every child unless env names it, and another user
    // cannot write the parent's coverage directory: point this child at a directory it can write.
    env: { ...process.env, NODE_V8_COVERAGE: writableBy(otherUsersCoverage) },
  });
}

function writableBy(directory: string): string {
  chmodSync(directory, 0o777);
  return directory;
}

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

  it('takes -d before validate as well as after it; the one after wins', async () => {
    assert.match((await cli('-d', 'team-a', 'validate', QUICKSTART)).out, /in domain team-a/);
    assert.match((await cli('-d', 'team-a', 'validate', '-d', 'team-b', QUICKSTART)).out, /in domain team-b/);
  });

  it('converts statements to YAML that show-create turns back into the same statements', async () => {
    const converted = await cli('convert', join(QUICKSTART, 'graph.sql'));
    assert.equal(converted.code, EXIT.ok, converted.err);
    const documents = parseAllDocuments(converted.out);
    assert.ok(Array.isArray(documents) && documents.length > 3);
    assert.ok(documents.every((document) => document.get('apiVersion') === 'streamroute.io/v1alpha1'));
    const shown = await cli('show-create', scratchFile('graph.yaml', converted.out));
    assert.equal(shown.code, EXIT.ok, shown.err);
    assert.match(shown.out, /^CREATE SCHEMA orders \(/);
    const again = await cli('convert', scratchFile('shown.sql', shown.out));
    assert.equal(again.code, EXIT.ok, again.err);
    assert.equal(again.out, converted.out, 'convert ∘ show-create is the identity on converted YAML');
  });

  it('sets the namespace with -n', async () => {
    const converted = await cli('convert', '-n', 'team-a', join(QUICKSTART, 'graph.sql'));
    assert.equal(converted.code, EXIT.ok, converted.err);
    const documents = parseAllDocuments(converted.out) as { getIn(path: string[]): unknown }[];
    assert.equal(documents.length, 7);
    for (const document of documents) assert.equal(document.getIn(['metadata', 'namespace']), 'team-a');
  });

  it('reports a duration too large once, though the parser and the compiler both find it (SR1003)', async () => {
    const text = (await readFile(join(QUICKSTART, 'graph.sql'), 'utf8')).concat(
      '\nCREATE EMITTER e FROM orders TO SYSLOG c MODE NO_ACK RETRY POLICY BACKOFF 99999999999999999h MAX 1s ENCODE USING orders_json',
      ' FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;\n',
    );
    const result = await cli('validate', scratchFile('literal.sql', text));
    assert.equal(result.code, EXIT.invalid);
    assert.equal(result.err.match(/SR1003/g)?.length, 1, result.err);
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

  it('a mistyped command names the nearest ones; a statement where a command goes points at -c', async () => {
    const typo = await cli('subscirbe', 'a', 'b');
    assert.equal(typo.code, EXIT.usage);
    assert.match(typo.err, /^error: unknown command 'subscirbe'\n\(Did you mean subscribe\?\)\n/);
    assert.match((await cli('valdate')).err, /\(Did you mean validate\?\)/);
    assert.match((await cli('DESCRIBE', 'x')).err, /\(Did you mean describe\?\)/);
    const far = await cli('frobnicate');
    assert.match(far.err, /^error: unknown command 'frobnicate'\n\nUsage: streamroute/);
    const statement = await cli('SHOW RELAYS;');
    assert.match(
      statement.err,
      /^error: unknown command 'SHOW RELAYS;'\n\(To run statements, pass them with -c: streamroute -c "SHOW RELAYS;"\)\n/,
    );
    // options: commander's own suggestion
    assert.match((await cli('describe', '--jsn', 'ingestor', 'x')).err, /\(Did you mean --json\?\)/);
  });

  describe('a file that cannot be read or written: one line and exit 3, never a stack trace', () => {
    const regular = () => scratchFile('regular.sql', 'CREATE RESOURCE a;');

    it('an input path under a regular file', async () => {
      const result = await cli('validate', join(regular(), 'graph.sql'));
      assert.equal(result.code, EXIT.io);
      assert.match(
        result.err,
        /^streamroute: cannot read .*regular\.sql\/graph\.sql: a part of the path is not a directory\n?$/,
      );
    });

    it('crds -o into a path under a regular file', async () => {
      const result = await cli('crds', '-o', join(regular(), 'crds'));
      assert.equal(result.code, EXIT.io);
      assert.match(
        result.err,
        /^streamroute: cannot create directory .*: a part of the path is not a directory\n?$/,
      );
    });

    it('--resource naming a file rather than a directory', async () => {
      const result = await cli('validate', QUICKSTART, '--resource', `p=${regular()}`);
      assert.equal(result.code, EXIT.io);
      assert.match(
        result.err,
        /^streamroute: --resource: cannot read directory .*: a part of the path is not a directory\n?$/,
      );
    });

    it('reading a directory as a file', () => {
      assert.throws(
        () => readInput(scratch),
        (error: unknown) => {
          assert.ok(error instanceof InputError);
          assert.match(error.message, /^cannot read .*: is a directory$/);
          return true;
        },
      );
    });

    it('as a process: unreadable input and --resource files (permission denied)', () => {
      const locked = scratchFile('locked.sql', 'CREATE RESOURCE a;');
      const resource = join(scratch, 'resource');
      mkdirSync(resource, { recursive: true });
      writeFileSync(join(resource, 'a.proto'), 'syntax = "proto3";');
      chmodSync(locked, 0o000);
      chmodSync(join(resource, 'a.proto'), 0o000);
      chmodSync(scratch, 0o755);
      for (const args of [
        ['validate', locked],
        ['validate', QUICKSTART, '--resource', `p=${resource}`],
      ]) {
        const run = runAsUser(args);
        // The other user must be able to run this Node binary (it cannot under a 0700 home directory).
        assert.equal(run.error, undefined, `cannot start ${process.execPath} as another user`);
        assert.equal(run.status, EXIT.io, run.stderr);
        assert.match(run.stderr, /^streamroute: (--resource: )?cannot read .*: permission denied\n$/);
      }
    });
  });

  describe('tells statements from YAML on stdin by the first token that is not a comment', () => {
    const CASES: [string, string][] = [
      ['CREATE RESOURCE a', 'sql'],
      ['  -- orders\n/* a; b */\n  begin;', 'sql'],
      ['--- orders, v2 ---\nCREATE RESOURCE a', 'sql'],
      ['drop relay r', 'sql'],
      ['-- old Mac line ends\rCREATE RESOURCE a', 'sql'],
      ['---\napiVersion: streamroute.io/v1alpha1\nkind: Relay', 'yaml'],
      ['# a relay\napiVersion: x\nspec: { program: ". | x;" }', 'yaml'],
      ['apiVersion: x\n---\nkind: Relay;', 'yaml'],
      ['create: me', 'yaml'],
      ['{"apiVersion": "x"}', 'yaml'],
    ];
    for (const [text, format] of CASES) {
      it(`${JSON.stringify(text)} → ${format}`, () => assert.equal(formatOf('-', text), format));
    }

    it('input with no token at all is what the command reads', () => {
      assert.equal(formatOf('-', '  -- nothing\n', undefined, 'yaml'), 'yaml');
      assert.equal(formatOf('-', '', undefined, 'sql'), 'sql');
    });

    it('as a process: convert - reads statements that start with a --- comment line', () => {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'operator/cli/main.ts'), 'convert', '-'],
        {
          encoding: 'utf8',
          cwd: ROOT,
          input: '--- generated ---\nCREATE RESOURCE a\n',
        },
      );
      assert.equal(run.status, EXIT.ok, run.stderr);
      assert.match(run.stdout, /kind: Resource/);
    });
  });

  it('documents exit codes in --help', async () => {
    const result = await cli('--help');
    assert.equal(result.code, EXIT.ok);
    assert.match(result.out, /Exit status: 0 success; 1 the input has errors/);
  });

  it('prints every CRD', async () => {
    const result = await cli('crds');
    const kinds = parseAllDocuments(result.out).map((document) => document.getIn(['spec', 'names', 'kind']));
    assert.equal(kinds.length, 16);
    assert.ok(kinds.includes('Codec'));
    assert.ok(kinds.includes('KafkaClient') && kinds.includes('TopicIngestor'));
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
