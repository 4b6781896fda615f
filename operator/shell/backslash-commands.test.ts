import assert from 'node:assert/strict';
import { backslashHelp, BACKSLASH_COMMANDS, parseBackslash } from './backslash-commands.js';

describe('backslash commands', () => {
  it('reads each command and its argument', () => {
    assert.deepEqual(parseBackslash('\\d'), { type: 'list' });
    assert.deepEqual(parseBackslash('  \\d  orders_in '), { type: 'list', name: 'orders_in' });
    assert.deepEqual(parseBackslash('\\dr'), { type: 'show', kind: 'Relay' });
    assert.deepEqual(parseBackslash('\\di'), { type: 'show', kind: 'Ingestor' });
    assert.deepEqual(parseBackslash('\\de'), { type: 'show', kind: 'Emitter' });
    assert.deepEqual(parseBackslash('\\c prod'), { type: 'domain', domain: 'prod' });
    assert.deepEqual(parseBackslash('\\c'), { type: 'domain' });
    assert.deepEqual(parseBackslash('\\i graph.sql'), { type: 'include', file: 'graph.sql' });
    assert.deepEqual(parseBackslash('\\q'), { type: 'quit' });
    assert.deepEqual(parseBackslash('\\?'), { type: 'help' });
  });

  it('an unknown command is named back with the nearest ones', () => {
    assert.deepEqual(parseBackslash('\\qu'), {
      error: 'invalid command \\qu; try \\? for help (Did you mean \\q?)',
    });
    assert.deepEqual(parseBackslash('\\zzzzzz'), { error: 'invalid command \\zzzzzz; try \\? for help' });
  });

  it('a wrong number of arguments says the usage', () => {
    assert.deepEqual(parseBackslash('\\dr x'), { error: '\\dr takes no argument: \\dr' });
    assert.deepEqual(parseBackslash('\\d a b'), { error: '\\d takes one argument: \\d [NAME]' });
    assert.deepEqual(parseBackslash('\\i'), { error: '\\i needs \\i FILE' });
  });

  it('the help lists every command', () => {
    const help = backslashHelp();
    for (const command of BACKSLASH_COMMANDS) assert.ok(help.includes(command.usage), command.name);
  });
});
