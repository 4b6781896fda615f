// The interactive shell (`streamroute` with no statement on a terminal) on a real pseudo-terminal against
// an embedded node: statements typed over several lines, Tab completion of keywords and of the node's
// object names, backslash commands, a batch, errors that leave the shell running, and history that a
// second session brings back with the Up arrow.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eachTestNode, type NodeHarness } from '../fixtures/node-harness.js';
import { PtySession, requirePty } from '../support/pty-session.js';

const UP = '\x1b[A';
const TAB = '\t';

describe('the shell on a terminal (pty) against an embedded node', function () {
  this.timeout(120_000);
  let node: NodeHarness;
  let state: string;
  eachTestNode((started) => (node = started));
  before(function () {
    requirePty(this);
  });
  beforeEach(() => (state = mkdtempSync(join(tmpdir(), 'streamroute-shell-state-'))));
  afterEach(() => rmSync(state, { recursive: true, force: true }));

  const open = async (): Promise<PtySession> => {
    const shell = new PtySession(['--server', `http://127.0.0.1:${node.adminPort}`], {
      env: { XDG_STATE_HOME: state },
    });
    await shell.waitFor(
      /streamroute shell: domain default on node http:\/\/127\.0\.0\.1:\d+\. .*\n.*default=> $/s,
    );
    return shell;
  };

  it('runs statements typed over lines, completes with Tab, answers backslash commands and survives errors', async () => {
    const shell = await open();
    try {
      // a statement over three lines: the prompt says it continues
      await shell.enter('CREATE RELAY audit', 'default-> ');
      await shell.enter("  SCHEMA orders -- a comment with a ; in it, and 'a quote", 'default-> ');
      const created = await shell.enter('  UNBRANCHED;');
      assert.match(created, /CREATE RELAY audit\n-- domain default runs graph version 2\n/);
      assert.match((await node.sql('SHOW RELAYS;')).stdout, /^audit +orders +statement$/m);

      // an error is said, and the shell goes on
      const failed = await shell.enter('DROP RELAY no_such_relay;');
      assert.match(
        failed,
        /<shell>:1:1: error SR2001: .*no_such_relay|<shell>:1:1: error SR2001: .*no-such-relay/,
      );
      const unreachable = await shell.enter('\\dx');
      assert.match(unreachable, /invalid command \\dx; try \\\? for help \(Did you mean \\d, .*\?\)/);

      // Tab: a keyword in the case typed, then the node's relay names after DROP RELAY
      let from = shell.mark();
      shell.type('show rel');
      await shell.waitFor('show rel', from);
      shell.type(TAB);
      await shell.waitFor('show relay', from);
      shell.type('s;\r');
      await shell.waitFor(/SHOW RELAYS\nNAME +SCHEMA +DECLARED IN\n/, from);
      from = shell.mark();
      shell.type('DROP RELAY paid');
      await shell.waitFor('DROP RELAY paid', from);
      shell.type(TAB);
      await shell.waitFor('DROP RELAY paid_', from);
      shell.type(TAB);
      await shell.waitFor(/paid_first +paid_last/, from);
      shell.type('\x15'); // Ctrl-U: the line is given up
      from = shell.mark();
      shell.type('\x03'); // Ctrl-C: a new prompt
      await shell.waitFor(/\^C\n.*default=> $/s, from);

      // backslash commands
      const relays = await shell.enter('\\dr');
      assert.match(relays, /^paid_first +paid +/m);
      const one = await shell.enter('\\d paid_first');
      assert.match(one, /CREATE RELAY paid_first SCHEMA paid/);
      const listed = await shell.enter('\\d');
      assert.match(listed, /^correlator +pay_first$/m);
      assert.match(
        await shell.enter('\\d paid_frist'),
        /no object named paid_frist in domain default \(Did you mean paid_first\?\)/,
      );

      // a batch: held until COMMIT, then one graph version
      assert.match(await shell.enter('BEGIN;', 'default=*> '), /BEGIN -- statements are held/);
      await shell.enter('CREATE RELAY a1 SCHEMA orders UNBRANCHED;', 'default=*> ');
      assert.match(
        await shell.enter('CREAT RELAY typo;', 'default=*> '),
        /error SR1001: .*\nnot added to the batch/,
      );
      await shell.enter('CREATE RELAY a2 SCHEMA orders UNBRANCHED;', 'default=*> ');
      assert.equal(await node.graphVersion(), 2, 'nothing ran before COMMIT');
      const committed = await shell.enter('COMMIT;');
      assert.match(
        committed,
        /CREATE RELAY a1\nCREATE RELAY a2\nCOMMIT\n-- domain default runs graph version 3\n/,
      );
      assert.equal(await node.graphVersion(), 3);

      from = shell.mark();
      shell.type('\\q\r');
      assert.equal(await shell.exit(), 0);
    } finally {
      shell.kill();
    }
  });

  it('keeps history across sessions, a multi-line statement as one entry', async () => {
    const first = await open();
    try {
      await first.enter('SHOW', 'default-> ');
      await first.enter('  CODECS;');
      first.type('\\q\r');
      assert.equal(await first.exit(), 0);
    } finally {
      first.kill();
    }
    const file = join(state, 'streamroute', 'history');
    assert.deepEqual(readFileSync(file, 'utf8').split('\n').filter(Boolean), [
      '"SHOW\\n  CODECS;"',
      '"\\\\q"',
    ]);

    const second = await open();
    try {
      const from = second.mark();
      second.type(UP);
      await second.waitFor('\\q', from);
      second.type(UP);
      await second.waitFor('CODECS;', from);
      second.type('\r');
      await second.waitFor(/SHOW CODECS\nNAME +FROM +SCHEMA/, from);
      second.type('\\q\r');
      assert.equal(await second.exit(), 0);
    } finally {
      second.kill();
    }
  });
});
