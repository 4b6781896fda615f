// Leader election on a real kube-apiserver with the production timings (lease 15 s, renew and retry 2 s):
// of two electors exactly one leads; a leader that dies without releasing is replaced once its lease
// expires; a leader that stops gracefully hands over within about one retry period.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { systemClock } from '../../dataplane/core/clock.js';
import { LeaderElector, type Lease } from '../../operator/controller/leader-election.js';
import { requireKubeOrSkip, sharedKubeApiServer } from '../support/kube-apiserver.js';

const LEASE = 'streamroute-operator';

describe('leader election on a real kube-apiserver', function () {
  this.timeout(90_000);
  let api: KubeApi;
  const namespace = `lease-${randomBytes(3).toString('hex')}`;
  const electors: LeaderElector[] = [];
  const events: string[] = [];

  before(async function () {
    await requireKubeOrSkip(this);
    const server = await sharedKubeApiServer();
    api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 50, burst: 100 },
      userAgent: 'leader-election-e2e',
    });
    await api.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: namespace } },
    });
  });

  after(async () => {
    await Promise.all(electors.map((elector) => elector.stop({ release: false })));
  });

  function elector(identity: string): LeaderElector {
    const created = new LeaderElector({
      api,
      namespace,
      name: LEASE,
      identity,
      clock: systemClock,
      onStartedLeading: () => events.push(`${identity} leads`),
      onStoppedLeading: () => events.push(`${identity} stops`),
    });
    electors.push(created);
    created.start();
    return created;
  }

  const lease = (): Promise<Lease> =>
    api.request<Lease>({ path: `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${LEASE}` });

  async function waitFor(what: string, condition: () => boolean, timeoutMs: number): Promise<number> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > timeoutMs) assert.fail(`${what}: not within ${timeoutMs} ms`);
      await sleep(50);
    }
    return Date.now() - started;
  }

  it('elects one of two, replaces a crashed leader after the lease expires, hands over fast on release', async () => {
    const a = elector('replica-a');
    const b = elector('replica-b');
    await waitFor('a leader', () => a.isLeader || b.isLeader, 10_000);
    await sleep(4_500); // two renewals: still exactly one
    assert.equal(Number(a.isLeader) + Number(b.isLeader), 1, events.join(', '));
    const [leader, follower] = a.isLeader ? [a, b] : [b, a];
    const held = await lease();
    assert.equal(held.spec?.holderIdentity, leader.identity);
    assert.equal(held.spec?.leaseDurationSeconds, 15);
    assert.match(held.spec?.renewTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    // A crash: the loop ends, nothing is released.
    await leader.stop({ release: false });
    assert.equal(leader.isLeader, false);
    const takeover = await waitFor(
      'the follower takes over',
      () => follower.isLeader,
      15_000 + 2_000 + 3_000,
    );
    assert.ok(takeover > 8_000, `took over after ${takeover} ms, before the lease could expire`);
    const taken = await lease();
    assert.equal(taken.spec?.holderIdentity, follower.identity);
    assert.equal(taken.spec?.leaseTransitions, 1);

    // A graceful stop releases: a waiting candidate takes over within about one retry period.
    const c = elector('replica-c');
    await sleep(2_500);
    assert.equal(c.isLeader, false);
    const releasing = Date.now();
    await follower.stop();
    assert.equal((await lease()).spec?.holderIdentity, '');
    await waitFor('the candidate takes over', () => c.isLeader, 2_000 + 1_500);
    assert.ok(Date.now() - releasing < 3_500);
    assert.equal((await lease()).spec?.holderIdentity, 'replica-c');
    await c.stop();
    assert.equal((await lease()).spec?.holderIdentity, '');
  });
});
