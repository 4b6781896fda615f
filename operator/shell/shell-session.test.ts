// The session's own decisions, with a target that records what it is asked (the real node and cluster
// are in test/e2e/cli-shell*.e2e.test.ts): bad input to backslash commands, a target that cannot be
// reached, a file that cannot be read — each said, and the session goes on.
import assert from 'node:assert/strict';
import { NodeError } from '../client/errors.js';
import { NameCache } from './name-cache.js';
import { ShellHistory } from './shell-history.js';
import { ShellSession } from './shell-session.js';
import type { StatementTarget } from './statement-target.js';

function recordingTarget(domain = 'default', fail?: string): StatementTarget & { scripts: string[] } {
  const scripts: string[] = [];
  return {
    kind: 'node',
    where: 'node http://127.0.0.1:1',
    domain,
    scripts,
    run(script, source, output) {
      scripts.push(`${source}: ${script}`);
      if (fail !== undefined) return Promise.reject(new NodeError(fail));
      if (script.startsWith('SHOW SCHEMAS;')) output.out('NAME  FIELDS  DECLARED IN\n(0 rows)');
      return Promise.resolve(true);
    },
    inDomain: (other) => recordingTarget(other, fail),
    domains: () => Promise.resolve(['default']),
  };
}

function session(target = recordingTarget()) {
  const lines: string[] = [];
  const output = {
    out: (text: string) => void lines.push(text),
    err: (text: string) => void lines.push(`! ${text}`),
  };
  const shell = new ShellSession({
    target,
    output,
    history: new ShellHistory(undefined, assert.fail),
    names: new NameCache(target),
  });
  return { shell, lines, target };
}

describe('ShellSession', () => {
  it('backslash commands with bad arguments are said and change nothing', async () => {
    const { shell, lines } = session();
    await shell.line('\\c Bad_Domain');
    await shell.line('\\i /no/such/file.sql');
    await shell.line('\\i -');
    await shell.line('\\dr extra');
    assert.deepEqual(lines, [
      '! \\c Bad_Domain: a domain is a namespace name: at most 63 lower-case letters, digits and -, starting and ending with a letter or digit',
      '! streamroute: cannot read /no/such/file.sql: no such file or directory',
      '! \\i: give a file: - would read the terminal',
      '! \\dr takes no argument: \\dr',
    ]);
    assert.equal(shell.prompt, 'default=> ');
  });

  it('a target that cannot be reached is said for each statement, and the session goes on', async () => {
    const { shell, lines, target } = session(
      recordingTarget('default', 'no node answers at http://127.0.0.1:1'),
    );
    await shell.line('SHOW RELAYS; SHOW CODECS;');
    assert.deepEqual(lines, [
      '! streamroute: no node answers at http://127.0.0.1:1',
      '! streamroute: no node answers at http://127.0.0.1:1',
    ]);
    assert.deepEqual(target.scripts, ['<shell>: SHOW RELAYS;', '<shell>: SHOW CODECS;']);
    assert.equal(shell.quit, false);
  });

  it('a batch keeps \\c and \\i out, and quitting with it open says nothing of it ran', async () => {
    const { shell, lines, target } = session();
    await shell.line('BEGIN;');
    await shell.line('CREATE RELAY r SCHEMA s UNBRANCHED;');
    await shell.line('\\c prod');
    await shell.line('\\i graph.sql');
    await shell.line('\\c');
    assert.deepEqual(lines.slice(2), [
      '! \\c: COMMIT or ROLLBACK the open batch first: a batch belongs to one domain',
      '! \\i: COMMIT or ROLLBACK the open batch first: a file runs as its own script',
      '-- working in domain default on node http://127.0.0.1:1; a batch of 1 is open',
    ]);
    await shell.line('\\q');
    assert.equal(shell.quit, true);
    shell.end();
    assert.equal(lines.at(-1), '! -- the open batch (1 statement) was not committed: nothing of it ran');
    assert.deepEqual(target.scripts, []);
  });

  it('\\r and Ctrl-C forget the statement being typed; \\c moves to a domain the node does not run yet', async () => {
    const { shell, lines } = session();
    await shell.line('CREATE RELAY r');
    assert.equal(shell.prompt, 'default-> ');
    await shell.line('\\r');
    assert.equal(shell.prompt, 'default=> ');
    await shell.line("SHOW 'unclosed");
    assert.equal(shell.prompt, "default'> ");
    shell.interrupt();
    assert.equal(shell.prompt, 'default=> ');
    await shell.line('\\c prod');
    assert.equal(shell.prompt, 'prod=> ');
    assert.deepEqual(lines, [
      '-- the statement being typed is forgotten',
      '-- now working in domain prod (the node runs no graph of it yet)',
    ]);
  });
});
