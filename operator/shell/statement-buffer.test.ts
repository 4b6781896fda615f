import assert from 'node:assert/strict';
import fc from 'fast-check';
import { firstTokenOffset } from '../language/split-statements.js';
import { StatementBuffer } from './statement-buffer.js';

function feed(lines: readonly string[]): { statements: string[]; buffer: StatementBuffer } {
  const buffer = new StatementBuffer();
  const statements = lines.flatMap((line) => buffer.add(line).statements);
  return { statements, buffer };
}

describe('StatementBuffer', () => {
  it('completes a statement at the ; that ends it, across lines', () => {
    const { statements, buffer } = feed(['CREATE RELAY audit', '  SCHEMA orders', '  UNBRANCHED;']);
    assert.deepEqual(statements, ['CREATE RELAY audit\n  SCHEMA orders\n  UNBRANCHED;']);
    assert.equal(buffer.waiting, 'nothing');
  });

  it('says what the text typed so far waits for', () => {
    const cases: [string[], string][] = [
      [['SHOW'], 'statement'],
      [["CREATE VHOST v HOSTS ('a;"], 'string'],
      [['CREATE CODEC c FROM JSON TRANSFORMATIONS $jaq$ .a;'], 'jaq'],
      [['SHOW /* a;'], 'comment'],
      [['SHOW RELAYS; -- only a comment after'], 'nothing'],
      [['', '   '], 'nothing'],
      [["x 'a", "b';"], 'nothing'],
    ];
    for (const [lines, waiting] of cases) assert.equal(feed(lines).buffer.waiting, waiting, lines.join('⏎'));
  });

  it('a ; inside a string, a $jaq$ program or a comment ends nothing', () => {
    const { statements } = feed([
      "CREATE VHOST v HOSTS ('a;b')",
      'TLS $jaq$ .x; .y $jaq$ -- not the end;',
      '/* ; */ ;',
    ]);
    assert.equal(statements.length, 1);
    assert.match(statements[0]!, /^CREATE VHOST v HOSTS \('a;b'\)\n.*\n\/\* ; \*\/ ;$/);
  });

  it('several statements on a line, blank ones dropped; history gets the text they came from', () => {
    const buffer = new StatementBuffer();
    const taken = buffer.add('SHOW RELAYS;; SHOW CODECS; SHOW EM');
    assert.deepEqual(taken.statements, ['SHOW RELAYS;', 'SHOW CODECS;']);
    assert.equal(taken.consumed, 'SHOW RELAYS;; SHOW CODECS;');
    assert.equal(buffer.text, ' SHOW EM');
    assert.deepEqual(buffer.add('ITTERS;').statements, ['SHOW EM\nITTERS;']);
  });

  it('a statement ending in a line comment keeps its ; outside the comment', () => {
    assert.deepEqual(feed(['SHOW RELAYS -- all of them', ';']).statements, ['SHOW RELAYS -- all of them\n;']);
  });

  it('reset forgets the statement being typed', () => {
    const buffer = new StatementBuffer();
    buffer.add("SHOW 'x");
    assert.equal(buffer.reset(), true);
    assert.equal(buffer.waiting, 'nothing');
    assert.equal(buffer.reset(), false);
    assert.deepEqual(buffer.add('SHOW RELAYS;').statements, ['SHOW RELAYS;']);
  });

  it('typing a text line by line completes the same statements as typing it at once', () => {
    const token = fc.constantFrom(
      'SHOW',
      ' RELAYS',
      ';',
      ' ',
      '\n',
      "'a;b'",
      "'it''s;'",
      "'x\n;y'",
      '$jaq$ .a; "q" $jaq$',
      '-- c; d\n',
      '/* ; \n */',
      '--',
      '/*',
      "'",
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (tokens, cuts) => {
          const text = tokens.join('');
          const offsets = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const lines = [0, ...offsets].map((start, index) =>
            text.slice(start, offsets[index] ?? text.length),
          );
          const joined = lines.join('\n');
          // A line of nothing but comments is dropped when no statement has started (psql does the same).
          const bodies = (statements: string[]) =>
            statements.map((each) => each.slice(firstTokenOffset(each)));
          assert.deepEqual(bodies(feed(lines).statements), bodies(feed([joined]).statements));
        },
      ),
    );
  });
});
