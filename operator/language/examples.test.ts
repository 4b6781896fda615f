// The examples and the language reference are part of the contract: they parse cleanly and, together,
// use every statement form (docs/statement-mapping.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GRAPH_KINDS } from '../api/index.js';
import type { Statement } from './ast.js';
import { parseScript } from './parse.js';

const ROOT = join(import.meta.dirname, '..', '..');

function parseDirectory(directory: string): Statement[] {
  const files = readdirSync(join(ROOT, directory))
    .filter((file) => file.endsWith('.sql'))
    .sort();
  assert.ok(files.length > 0);
  return files.flatMap((file) => {
    const path = join(directory, file);
    const { statements, diagnostics } = parseScript(readFileSync(join(ROOT, path), 'utf8'), path);
    assert.deepEqual(diagnostics, [], path);
    // Files are also read concatenated (test/e2e), so each must end its last statement with `;`.
    assert.match(readFileSync(join(ROOT, path), 'utf8'), /;\s*(--[^\n]*\s*)*$/, path);
    return statements;
  });
}

describe('examples', () => {
  it('quickstart: a small HTTP JSON ingestion graph', () => {
    const statements = parseDirectory('examples/quickstart');
    assert.deepEqual(
      statements.map((statement) => (statement.type === 'create' ? statement.kind : statement.type)),
      ['Schema', 'WireSchema', 'Codec', 'Relay', 'Vhost', 'Endpoint', 'HttpIngestor'],
    );
  });

  describe('full: every statement form', () => {
    const statements = parseDirectory('examples/full');
    const creates = statements.flatMap((statement) => (statement.type === 'create' ? [statement] : []));
    const specs = (kind: string) =>
      creates
        .filter((statement) => statement.kind === kind)
        .map((statement) => statement.spec as Record<string, unknown>);
    const text = readdirSync(join(ROOT, 'examples/full'))
      .filter((file) => file.endsWith('.sql'))
      .map((file) => readFileSync(join(ROOT, 'examples/full', file), 'utf8'))
      .join('\n');

    it('creates every kind', () => {
      for (const { kind } of GRAPH_KINDS) assert.ok(specs(kind).length > 0, kind);
    });

    it('has a codec from every source, JAQ programs in both notations, and RFC3339 rules', () => {
      const from = new Set(specs('Codec').map((spec) => spec.from));
      assert.deepEqual([...from].sort(), [
        'CBOR',
        'JSON',
        'PROTOBUF',
        'SYSLOG',
        'TOML',
        'WIRE_JSON',
        'XML',
        'YAML',
      ]);
      assert.match(text, /ON INGESTION '/);
      assert.match(text, /ON INGESTION \$jaq\$/);
      assert.match(text, /ON EMITTING '/);
      assert.match(text, /ON EMITTING \$jaq\$/);
      assert.ok(specs('Codec').some((spec) => spec.from === 'PROTOBUF' && spec.encodeRfc3339 !== undefined));
    });

    it('has syslog listeners with every ON QUIESCE form and IF NOT EXISTS, over udp, tcp and tls', () => {
      const quiesce = specs('SyslogIngestor').map((spec) => JSON.stringify(spec.quiesce));
      assert.deepEqual(
        new Set(quiesce),
        new Set([
          '{"action":"SUSPEND"}',
          '{"action":"BUFFER","maxSize":"8MiB","onOverflow":"DROP_OLDEST"}',
          '{"action":"BUFFER","maxSize":"16MiB","onOverflow":"DROP_NEWEST"}',
          '{"action":"DROP"}',
        ]),
      );
      assert.ok(creates.some((statement) => statement.kind === 'SyslogIngestor' && statement.ifNotExists));
      const clients = specs('SyslogClient') as {
        config: { protocol: string; tlsCertFile?: string };
        mount?: object;
      }[];
      assert.deepEqual(
        new Set(clients.map((client) => client.config.protocol)),
        new Set(['udp', 'tcp', 'tls']),
      );
      assert.ok(
        clients.some(
          (client) => client.mount !== undefined && client.config.tlsCertFile?.startsWith('{{ pki }}/'),
        ),
      );
    });

    it('has a correlator with DROP and SEND TO timeouts, an emitter with BATCH and ALLOW SENSITIVE, SEND TO handlers', () => {
      const actions = specs('Correlator').flatMap((spec) => {
        const onTimeout = spec.onTimeout as Record<'left' | 'right', { action: string }>;
        return [onTimeout.left.action, onTimeout.right.action];
      });
      assert.deepEqual(new Set(actions), new Set(['DROP', 'SEND_TO']));
      assert.ok(
        specs('Emitter').some((spec) => spec.batch !== undefined && spec.allowSensitive !== undefined),
      );
      assert.match(text, /ON MESSAGE ERROR SEND TO \w+ INHERIT ALL SET/);
      assert.match(text, /SENSITIVE/);
      const tls = specs('Vhost').map((spec) =>
        Object.keys(spec.tls ?? {})
          .sort()
          .join(),
      );
      assert.ok(tls.includes('certFile,keyFile,mount') && tls.includes('secretName'));
    });

    it('has every client-side statement', () => {
      const types = new Set(statements.map((statement) => statement.type));
      for (const type of [
        'upload-resource',
        'show',
        'show-create',
        'describe',
        'drop',
        'alter',
        'begin',
        'commit',
        'rollback',
      ]) {
        assert.ok(types.has(type as Statement['type']), type);
      }
      assert.ok(creates.some((statement) => statement.orReplace));
      const shown = statements.flatMap((statement) => (statement.type === 'show' ? [statement.what] : []));
      assert.equal(new Set(shown).size, 12);
    });
  });
});

describe('docs/language.md', () => {
  it('every sql block parses without diagnostics', () => {
    const doc = readFileSync(join(ROOT, 'docs/language.md'), 'utf8');
    const blocks = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    assert.ok(blocks.length > 15);
    for (const block of blocks) assert.deepEqual(parseScript(block).diagnostics, [], block);
  });
});
