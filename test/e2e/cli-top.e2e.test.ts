// `streamroute top` against an embedded node: on a real pseudo-terminal, the live view shows each
// component's rates, totals, pending records and state as records are POSTed, follows a resize, sorts on
// a key, and q leaves the terminal as it was (main screen, cursor, the tty's modes); without a terminal,
// one look as a table or JSON, with rates measured over the interval.
import assert from 'node:assert/strict';
import { runCli } from '../../operator/cli/program.js';
import { eachTestNode, type NodeHarness } from '../fixtures/node-harness.js';
import { CapturedOutput } from '../support/canned-node.js';
import { plain, PtySession, requirePty } from '../support/pty-session.js';

/** The last frame the screen drew (each starts at the cursor's home). */
const lastFrame = (output: string): string => plain(output.slice(output.lastIndexOf('\x1b[H')));

/** POSTs an order every `everyMs` until stopped. */
function keepPosting(node: NodeHarness, everyMs: number): { stop(): Promise<number> } {
  let sent = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const response = await node.post('/web/orders', { order_id: `T${sent}`, amount: 1 });
      assert.equal(response.status, 202);
      sent++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return sent;
    },
  };
}

describe('streamroute top against an embedded node', function () {
  this.timeout(120_000);
  let node: NodeHarness;
  eachTestNode((started) => (node = started));

  describe('on a terminal (pty)', () => {
    before(function () {
      requirePty(this);
    });

    it('shows rates, totals, pending and state live; follows a resize; q restores the terminal', async () => {
      const server = `http://127.0.0.1:${node.adminPort}`;
      // `stty -g` before and after: the tty's modes must come back exactly
      const top = new PtySession([], {
        rows: 30,
        columns: 130,
        shell: `stty -g; "$@" --server ${server} top --interval 0.5; echo "exit $?"; stty -g`,
      });
      const posting = keepPosting(node, 20);
      try {
        await top.waitForRaw('\x1b[?1049h');
        const frame = async (test: (text: string) => boolean, what: string) => {
          const deadline = Date.now() + 20_000;
          while (!test(lastFrame(top.output))) {
            if (Date.now() > deadline) throw new Error(`no frame showed ${what}:\n${lastFrame(top.output)}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          return lastFrame(top.output);
        };
        const rate = (text: string, kind: string, name: string): number | undefined => {
          const row = new RegExp(
            `^${kind} +${name} +(\\S+) +(\\S+) +(\\S+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\S+)`,
            'm',
          ).exec(text);
          return row === null || row[2] === '-' ? undefined : Number(row[2]);
        };
        const live = await frame(
          (text) => (rate(text, 'http-ingestor', 'web_in') ?? 0) > 0,
          'web_in receiving',
        );
        assert.match(
          live,
          /^streamroute top: domain default on node http:\/\/127\.0\.0\.1:\d+ · every 0\.5s · sort kind/,
        );
        assert.match(live, /KIND +NAME +STATE +IN\/S +OUT\/S +IN +OUT +ERRORS +DROPS +PENDING/);
        assert.match(live, /^http-ingestor +web_in +Running +[\d.]+ +[\d.]+ +\d+ +\d+ +0 +0 +0$/m);
        assert.match(live, /^relay +web_orders +- +[\d.]+ +[\d.]+ +\d+ +\d+ +0 +0 +-$/m);
        assert.match(live, /^junction +all_orders +- /m);
        // orders wait for their payments: the correlators hold them
        const pending = await frame(
          (text) => /^correlator +pay_first +- .* ([1-9]\d*)$/m.test(text),
          'pending orders',
        );
        assert.match(pending, /^emitter|^correlator +pay_last/m);

        // a narrow window: the totals go first, every line fits
        top.resize(20, 72);
        const narrow = await frame(
          (text) => !/ IN  OUT /.test(text) && text.includes('KIND'),
          'the narrow layout',
        );
        assert.ok(
          narrow.split('\n').every((line) => line.length <= 72),
          narrow,
        );
        assert.match(narrow, /^KIND +NAME +STATE +IN\/S +OUT\/S +ERRORS +DROPS +PENDING$/m);

        // o sorts by records out per second: the busiest first
        top.type('o');
        // the relay `orders` takes every order twice (from the junction, to both correlators)
        await frame((text) => /^KIND .*\nrelay +orders +/m.test(text), 'the relay orders first');

        const sent = await posting.stop();
        assert.ok(sent > 10, `${sent} orders`);
        top.type('q');
        assert.equal(await top.exit(), 0);
        const shown = top.output;
        assert.ok(
          shown.lastIndexOf('\x1b[?1049l') > shown.lastIndexOf('\x1b[?1049h'),
          'the alternate screen is left',
        );
        assert.ok(
          shown.lastIndexOf('\x1b[?25h') > shown.lastIndexOf('\x1b[?25l'),
          'the cursor is shown again',
        );
        const [before, ...rest] = plain(shown).split('\n');
        const after = rest.filter((line) => line.trim() !== '').at(-1);
        assert.match(plain(shown), /exit 0\n/);
        assert.equal(after, before, 'stty -g: the same modes after as before');
      } finally {
        await posting.stop();
        top.kill();
      }
    });
  });

  describe('without a terminal: one look', () => {
    const look = async (...args: string[]) => {
      const output = new CapturedOutput();
      const code = await runCli(['--server', `http://127.0.0.1:${node.adminPort}`, 'top', ...args], output, {
        stdin: { isTTY: false, read: () => Promise.resolve('') },
      });
      return { code, out: output.outs.join(''), err: output.errs.join('') };
    };

    it('-o json: the rows of the node with rates over the interval', async () => {
      const posting = keepPosting(node, 10);
      const result = await look('-o', 'json', '--interval', '0.5');
      await posting.stop();
      assert.equal(result.code, 0, result.err);
      const json = JSON.parse(result.out) as {
        domain: string;
        intervalSeconds: number;
        nodes: { node: string; components: Record<string, unknown>[] }[];
      };
      assert.equal(json.domain, 'default');
      assert.equal(json.intervalSeconds, 0.5);
      assert.equal(json.nodes.length, 1);
      const web = json.nodes[0]!.components.find((each) => each['name'] === 'web_in');
      assert.equal(web?.['kind'], 'http-ingestor');
      assert.equal(web?.['state'], 'Running');
      assert.ok((web?.['inPerSecond'] as number) > 0, JSON.stringify(web));
      const counted = await node.metric('streamroute_records_in_total', {
        kind: 'http-ingestor',
        name: 'web_in',
      });
      const shown = web?.['recordsIn'] as number;
      assert.ok(shown > 0 && shown <= counted, `${shown} of ${counted}`);
      const kinds = new Set(json.nodes[0]!.components.map((each) => each['kind']));
      assert.deepEqual([...kinds].sort(), ['correlator', 'http-ingestor', 'junction', 'relay']);
    });

    it('a table sorted as asked; a node that does not answer is exit 3 with the reason', async () => {
      const table = await look('--interval', '0.1', '--sort', 'name');
      assert.equal(table.code, 0, table.err);
      const names = table.out
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[1]);
      assert.deepEqual(names, [...names].sort());
      assert.ok(names.includes('pay_first'));

      const bad = await look('--interval', '0');
      assert.equal(bad.code, 2);
      assert.match(bad.err, /--interval.*expected seconds from 0\.1 to 3600/);
      const output = new CapturedOutput();
      const gone = await runCli(['--server', 'http://127.0.0.1:1', 'top'], output, {
        stdin: { isTTY: false, read: () => Promise.resolve('') },
      });
      assert.equal(gone, 3);
      assert.match(output.errs.join(''), /no node answers at http:\/\/127\.0\.0\.1:1/);
    });
  });
});
