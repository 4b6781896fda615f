import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYWORDS } from '../language/keywords.generated.js';
import { complete, type CompletionContext } from './completer.js';
import type { ListedObject } from './object-names.js';

const OBJECTS: ListedObject[] = [
  { kind: 'Relay', name: 'orders', columns: {} },
  { kind: 'Relay', name: 'order_audit', columns: {} },
  { kind: 'Schema', name: 'orders', columns: {} },
  { kind: 'WireSchema', name: 'orders_wire', columns: {} },
  { kind: 'Ingestor', name: 'orders_in', columns: {} },
  { kind: 'Emitter', name: 'to_siem', columns: {} },
  { kind: 'Emitter', name: 'To_Audit', columns: {} },
  { kind: 'Emitter', name: 'from-yaml', columns: {} },
];

const at = (line: string, more: Partial<CompletionContext> = {}) =>
  complete({ before: '', waiting: 'nothing', line, objects: OBJECTS, domains: ['default', 'prod'], ...more });

describe('shell completion', () => {
  it('a statement starts with a statement keyword, in the case typed', () => {
    assert.deepEqual(at('SH'), [['SHOW'], 'SH']);
    assert.deepEqual(at('  d'), [['describe', 'drop'], 'd']);
    assert.deepEqual(at('SHOW RELAYS; C'), [['COMMIT', 'CREATE'], 'C']);
  });

  it('after a kind word, the names of that kind only, as a statement writes them', () => {
    assert.deepEqual(at('DROP RELAY '), [['order_audit', 'orders'], '']);
    assert.deepEqual(at('drop relay order_'), [['order_audit'], 'order_']);
    // as typed (decision 0025); a YAML object's resource name with `_` for `-`
    assert.deepEqual(at('DESCRIBE EMITTER '), [['To_Audit', 'from_yaml', 'to_siem'], '']);
    assert.deepEqual(at('ALTER WIRE JSON SCHEMA o'), [['orders_wire'], 'o']);
    assert.deepEqual(at('CREATE RELAY audit SCHEMA '), [['orders'], '']);
    assert.deepEqual(at('CREATE OR REPLACE RELAY '), [['order_audit', 'orders'], '']);
  });

  it('where a new name goes, nothing', () => {
    assert.deepEqual(at('CREATE RELAY '), [[], '']);
    assert.deepEqual(at('CREATE HTTP ENDPOINT INGESTOR o'), [[], 'o']);
    assert.deepEqual(at('CREATE IF NOT EXISTS WIRE JSON SCHEMA '), [[], '']);
  });

  it('elsewhere, the grammar keywords and every name', () => {
    const [found] = at('CREATE RELAY audit SCHEMA orders UN');
    assert.deepEqual(found, ['UNBRANCHED']);
    const [everything] = at('CREATE JUNCTION j FROM orders TO ');
    assert.ok(KEYWORDS.every((keyword) => everything.includes(keyword)));
    assert.ok(everything.includes('to_siem'));
  });

  it('reads the words of earlier lines of the statement', () => {
    assert.deepEqual(at('', { before: 'DROP RELAY', waiting: 'statement' }), [['order_audit', 'orders'], '']);
  });

  it('nothing inside a string, a $jaq$ program or a comment', () => {
    assert.deepEqual(at("CREATE VHOST v HOSTS ('or"), [[], '']);
    assert.deepEqual(at('.a', { before: 'CREATE CODEC c FROM JSON TRANSFORMATIONS $jaq$', waiting: 'jaq' }), [
      [],
      '',
    ]);
    assert.deepEqual(at('SHOW /* RE'), [[], '']);
  });

  it('backslash commands, object names after \\d, domains after \\c, files after \\i', () => {
    assert.deepEqual(at('\\d'), [['\\d', '\\dr', '\\di', '\\de', '\\dc', '\\dj', '\\ds'], '\\d']);
    assert.deepEqual(at('\\q'), [['\\q'], '\\q']);
    assert.deepEqual(at('\\d orders_'), [['orders_in', 'orders_wire'], 'orders_']);
    assert.deepEqual(at('\\c p'), [['prod'], 'p']);
    const dir = mkdtempSync(join(tmpdir(), 'streamroute-complete-'));
    try {
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'graph.sql'), '');
      assert.deepEqual(at(`\\i ${dir}/`), [[`${dir}/graph.sql`, `${dir}/sub/`], `${dir}/`]);
      assert.deepEqual(at(`\\i ${dir}/g`), [[`${dir}/graph.sql`], `${dir}/g`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a backslash inside an open string is text, not a command', () => {
    assert.deepEqual(at('\\d', { before: "CREATE VHOST v HOSTS ('a", waiting: 'string' }), [[], '']);
  });
});
