import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_SIZE, historyFile, ShellHistory } from './shell-history.js';

describe('shell history', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'streamroute-history-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives in $STREAMROUTE_HISTORY, else $XDG_STATE_HOME/streamroute, else ~/.local/state/streamroute', () => {
    assert.equal(historyFile({ STREAMROUTE_HISTORY: '/h/f', XDG_STATE_HOME: '/x', HOME: '/home/u' }), '/h/f');
    assert.equal(historyFile({ STREAMROUTE_HISTORY: '', HOME: '/home/u' }), undefined);
    assert.equal(historyFile({ XDG_STATE_HOME: '/x', HOME: '/home/u' }), '/x/streamroute/history');
    assert.equal(
      historyFile({ XDG_STATE_HOME: 'rel', HOME: '/home/u' }),
      '/home/u/.local/state/streamroute/history',
    );
    assert.equal(historyFile({ HOME: '/home/u' }), '/home/u/.local/state/streamroute/history');
  });

  it('keeps multi-line statements whole across sessions, newest first, an earlier copy moving up', () => {
    const file = join(dir, 'state', 'streamroute', 'history');
    const first = new ShellHistory(file, assert.fail);
    first.add('SHOW RELAYS;');
    first.add("CREATE VHOST v\n  HOSTS ('a');");
    first.add('SHOW RELAYS;');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const second = new ShellHistory(file, assert.fail);
    assert.deepEqual(second.entries, ['SHOW RELAYS;', "CREATE VHOST v\n  HOSTS ('a');"]);
  });

  it('is bounded: the newest entries are kept, and the file is rewritten when it has grown to twice that', () => {
    const file = join(dir, 'history');
    const history = new ShellHistory(file, assert.fail);
    for (let index = 0; index < 2 * HISTORY_SIZE + 5; index++) history.add(`SHOW RELAYS; -- ${index}`);
    assert.equal(history.entries.length, HISTORY_SIZE);
    assert.equal(history.entries[0], `SHOW RELAYS; -- ${2 * HISTORY_SIZE + 4}`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.ok(lines.length <= 2 * HISTORY_SIZE, `${lines.length} lines`);
    assert.deepEqual(new ShellHistory(file, assert.fail).entries, history.entries);
  });

  it('skips lines that are not entries; a file that cannot be read or written is said once', () => {
    const file = join(dir, 'history');
    writeFileSync(file, '"SHOW RELAYS;"\nnot json\n42\n');
    assert.deepEqual(new ShellHistory(file, assert.fail).entries, ['SHOW RELAYS;']);
    if (process.getuid?.() === 0) return; // root reads and writes any file
    chmodSync(file, 0o000);
    const warnings: string[] = [];
    const history = new ShellHistory(file, (message) => warnings.push(message));
    history.add('SHOW CODECS;');
    history.add('SHOW EMITTERS;');
    assert.deepEqual(warnings, [
      `streamroute: the history starts empty: cannot read ${file}: permission denied`,
      `streamroute: the history is not saved: cannot write ${file}: permission denied`,
    ]);
    assert.deepEqual(history.entries, ['SHOW EMITTERS;', 'SHOW CODECS;']);
  });

  it('a directory in the way is said once, and the session keeps its entries', () => {
    const warnings: string[] = [];
    const history = new ShellHistory(dir, (message) => warnings.push(message));
    history.add('SHOW CODECS;');
    history.add('SHOW RELAYS;');
    assert.deepEqual(warnings, [
      `streamroute: the history starts empty: cannot read ${dir}: is a directory`,
      `streamroute: the history is not saved: cannot write ${dir}: is a directory`,
    ]);
  });
});
