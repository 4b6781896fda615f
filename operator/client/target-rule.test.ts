import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseServer, type Server } from './endpoint.js';
import {
  chooseCluster,
  chooseTarget,
  currentContext,
  type ReadText,
  type TargetChoice,
} from './target-rule.js';

const KUBECONFIG_TEXT = (context: string) =>
  `apiVersion: v1\nkind: Config\ncurrent-context: ${JSON.stringify(context)}\ncontexts: []\n`;
const files =
  (entries: Record<string, string>): ReadText =>
  (path) =>
    entries[path];
const server = (text: string) => parseServer(text) as Server;

function summary(choice: TargetChoice | string): string {
  if (typeof choice === 'string') return `error: ${choice}`;
  if (choice.kind === 'node') return `node ${choice.server.shown} by ${choice.chosenBy}`;
  return `cluster ${JSON.stringify(choice.options)} by ${choice.chosenBy}`;
}

describe('the target rule (docs/cli.md, "Choosing the target")', () => {
  const home = { HOME: '/home/u' };
  const homeConfig = files({ '/home/u/.kube/config': KUBECONFIG_TEXT('dev') });

  it('takes each step in order: flags, $STREAMROUTE_SERVER, $STREAMROUTE_KUBECONFIG, $KUBECONFIG, ~/.kube/config, the default', () => {
    const cases: [Parameters<typeof chooseTarget>[0], Record<string, string>, ReadText, string][] = [
      [
        { server: server('http://n:1') },
        { STREAMROUTE_SERVER: 'http://e:2' },
        homeConfig,
        'node http://n:1 by --server',
      ],
      [
        { context: 'prod' },
        { STREAMROUTE_SERVER: 'http://e:2' },
        homeConfig,
        'cluster {"context":"prod"} by --context prod',
      ],
      [{ kubeconfig: '/k' }, {}, homeConfig, 'cluster {"kubeconfig":"/k"} by --kubeconfig /k'],
      [
        {},
        { ...home, STREAMROUTE_SERVER: 'http://e:2' },
        homeConfig,
        'node http://e:2 by $STREAMROUTE_SERVER',
      ],
      [
        {},
        { ...home, STREAMROUTE_KUBECONFIG: '/s' },
        homeConfig,
        'cluster {"kubeconfig":"/s"} by $STREAMROUTE_KUBECONFIG (/s)',
      ],
      [
        {},
        { ...home, KUBECONFIG: '/a' },
        files({ '/a': KUBECONFIG_TEXT('a-ctx'), '/home/u/.kube/config': KUBECONFIG_TEXT('dev') }),
        'cluster {"kubeconfig":"/a"} by the current context "a-ctx" of $KUBECONFIG (/a)',
      ],
      [
        {},
        { ...home, KUBECONFIG: '/none:/b:/c' },
        files({ '/b': 'kind: Config\n', '/c': KUBECONFIG_TEXT('c-ctx') }),
        'cluster {"context":"c-ctx"} by the current context "c-ctx" of $KUBECONFIG (/c)',
      ],
      [
        {},
        home,
        homeConfig,
        'cluster {"kubeconfig":"/home/u/.kube/config"} by the current context "dev" of ~/.kube/config',
      ],
      // $KUBECONFIG set replaces ~/.kube/config, as for kubectl: none of its files has a context.
      [
        {},
        { ...home, KUBECONFIG: '/missing' },
        homeConfig,
        'node http://127.0.0.1:8081 by the default (no --server, $STREAMROUTE_SERVER, or kubeconfig with a current context)',
      ],
      [
        {},
        home,
        files({}),
        'node http://127.0.0.1:8081 by the default (no --server, $STREAMROUTE_SERVER, or kubeconfig with a current context)',
      ],
      [
        {},
        {},
        homeConfig,
        'node http://127.0.0.1:8081 by the default (no --server, $STREAMROUTE_SERVER, or kubeconfig with a current context)',
      ],
    ];
    for (const [flags, env, read, expected] of cases)
      assert.equal(summary(chooseTarget(flags, env, read)), expected);
  });

  it('refuses contradicting flags and a bad $STREAMROUTE_SERVER with a usage error naming them', () => {
    assert.equal(
      summary(chooseTarget({ server: server('http://n:1'), context: 'prod' }, {}, files({}))),
      'error: --server (a node) and --context prod (a cluster) contradict each other: pass one',
    );
    assert.match(
      summary(chooseTarget({}, { STREAMROUTE_SERVER: 'ftp://x' }, files({}))),
      /^error: \$STREAMROUTE_SERVER=ftp:\/\/x: /,
    );
  });

  it('commands that only work on a cluster skip the node steps, and say how to choose one', () => {
    assert.equal(
      summary(chooseCluster({}, { ...home, STREAMROUTE_SERVER: 'http://e:2' }, homeConfig)),
      'cluster {"kubeconfig":"/home/u/.kube/config"} by the current context "dev" of ~/.kube/config',
    );
    assert.match(
      summary(chooseCluster({ server: server('http://n:1') }, home, homeConfig)),
      /^error: --server names a node/,
    );
    assert.match(
      summary(chooseCluster({}, {}, files({}))),
      /^error: no cluster is chosen: pass --kubeconfig FILE/,
    );
  });

  it('a kubeconfig that is not YAML, or has no current context, chooses nothing, silently (it holds credentials)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.constantFrom('%Md7"x', '!!y|"', '%1', 'a: *x')), (text) => {
          const context = currentContext(text);
          assert.ok(context === undefined || typeof context === 'string');
        }),
      );
    } finally {
      await new Promise(setImmediate); // warnings are emitted on the next tick
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, [], 'no warning quotes a kubeconfig');
    for (const text of [
      '',
      '[',
      'current-context: ""',
      'current-context: 7',
      '- a\n- b',
      'null',
      '{"current-context": "j"}',
    ])
      assert.equal(currentContext(text), text.startsWith('{') ? 'j' : undefined, text);
  });
});
