// The completion scripts in the real shells: bash's function called as bash's completion calls it, and
// zsh and fish run interactively on a pseudo-terminal, where Tab is pressed and the line read back.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirePeer, runs } from '../../../test/support/peers.js';
import { PtySession, requirePty } from '../../../test/support/pty-session.js';
import { runCli } from '../program.js';

async function script(shell: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['completion', shell], {
    out: (text) => (out += text),
    err: (text) => (err += text),
  });
  return { code, out, err };
}

describe('streamroute completion bash|zsh|fish', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'streamroute-completion-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const saved = async (shell: string): Promise<string> => {
    const printed = await script(shell);
    assert.equal(printed.code, 0, printed.err);
    const file = join(dir, `streamroute.${shell}`);
    writeFileSync(file, printed.out);
    return file;
  };

  it('names every command of the command line in every script; another shell is a usage error', async () => {
    const commands = [
      'convert',
      'validate',
      'node',
      'subscribe',
      'describe',
      'top',
      'completion',
      'apply',
      'rollback',
    ];
    for (const shell of ['bash', 'zsh', 'fish']) {
      const { out } = await script(shell);
      for (const command of commands) assert.ok(out.includes(command), `${shell}: ${command}`);
    }
    const other = await script('pwsh');
    assert.equal(other.code, 2);
    assert.match(
      other.err,
      /value 'pwsh' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish\./,
    );
  });

  it('bash: commands, options, choices, arguments, files, and keywords inside a quoted -c', async () => {
    const file = await saved('bash');
    writeFileSync(join(dir, 'graph.sql'), '');
    const cases: [string[], string][] = [
      [['streamroute', 'sub'], 'subscribe'],
      [['streamroute', 'to'], 'top'],
      [['streamroute', '-d', 'prod', 'desc'], 'describe'],
      [['streamroute', 'describe', ''], 'ingestor emitter'],
      [['streamroute', 'describe', 'ingestor', ''], ''],
      [['streamroute', 'validate', '--f'], '--format'],
      [['streamroute', 'validate', '--format', ''], 'sql yaml'],
      [['streamroute', 'top', '--sort', 'p'], 'pending'],
      [['streamroute', 'completion', ''], 'bash zsh fish'],
      [['streamroute', '--serv'], '--server'],
      [['streamroute', '-c', 'sh'], 'show'],
      [['streamroute', '-c', "'SHOW RELA"], "'SHOW RELAY 'SHOW RELAYS"],
      [['streamroute', 'validate', `${dir}/gr`], `${dir}/graph.sql`],
      [['streamroute', 'node', '--manifests', `${dir}/gr`], `${dir}/graph.sql`],
    ];
    for (const [words, expected] of cases) {
      const program = [
        `source ${JSON.stringify(file)}`,
        'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _streamroute 2>/dev/null',
        'echo "${COMPREPLY[*]}"',
      ].join('\n');
      const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', ...words], {
        encoding: 'utf8',
      });
      assert.equal(result.stdout.trim(), expected, words.join(' '));
    }
  });

  describe('zsh and fish, interactively on a terminal', () => {
    before(function () {
      requirePty(this);
    });

    /** Types `line` and a Tab into an interactive shell; resolves with what the line became. */
    const tab = async (session: PtySession, line: string, expected: string) => {
      const from = session.mark();
      session.type(line);
      await session.waitFor(line, from);
      session.type('\t');
      await session.waitFor(expected, from);
      session.type('\x15'); // Ctrl-U: forget the line
    };

    it('zsh', async function () {
      requirePeer(this, runs('zsh', ['--version']), 'zsh is needed to check its completion script');
      const file = await saved('zsh');
      const zsh = new PtySession([], { command: ['zsh', '-f', '-i'] });
      try {
        await zsh.waitFor(/\S/);
        zsh.type(`PS1='zsh> '; autoload -Uz compinit && compinit -u -D && source ${file}\r`);
        await zsh.waitFor(/zsh> $/);
        await tab(zsh, 'streamroute subs', 'streamroute subscribe ');
        await tab(zsh, "streamroute -c 'SHOW RELA", "streamroute -c 'SHOW RELAY");
        await tab(zsh, 'streamroute validate --for', 'streamroute validate --format ');
        await tab(zsh, 'streamroute top --sort dr', 'streamroute top --sort drops ');
        zsh.type('exit\r');
        assert.equal(await zsh.exit(), 0);
      } finally {
        zsh.kill();
      }
    });

    it('fish', async function () {
      requirePeer(this, runs('fish', ['--version']), 'fish is needed to check its completion script');
      const file = await saved('fish');
      const fish = new PtySession([], { command: ['fish', '--no-config', '-i'] });
      try {
        await fish.waitFor(/\S/);
        fish.type(`function fish_prompt; echo -n 'fish> '; end; source ${file}\r`);
        await fish.waitFor(/fish> $/);
        await tab(fish, 'streamroute subs', 'streamroute subscribe ');
        await tab(fish, "streamroute -c 'SHOW RELA", "streamroute -c 'SHOW RELAY");
        await tab(fish, 'streamroute describe em', 'streamroute describe emitter ');
        await tab(fish, 'streamroute node --log-level wa', 'streamroute node --log-level warn ');
        fish.type('exit\r');
        assert.equal(await fish.exit(), 0);
      } finally {
        fish.kill();
      }
    });
  });
});
