import assert from 'node:assert/strict';
import { KubeApiError, type KubeApi, type RequestSpec } from '../../dataplane/kube-client/kube-api.js';
import { ManualClock } from '../../dataplane/core/clock.js';
import {
  decideLease,
  LeaderElector,
  leaseSpecFor,
  microTime,
  observeLease,
  type Lease,
  type LeaseObservation,
} from './leader-election.js';
import { defaultIdentity } from './identity.js';

function lease(holderIdentity: string, extra: Partial<NonNullable<Lease['spec']>> = {}): Lease {
  return {
    metadata: { name: 'streamroute-operator', namespace: 'ops', resourceVersion: '1' },
    spec: { holderIdentity, leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.000000Z', ...extra },
  };
}

const DURATION = 15_000;

describe('leader election', () => {
  describe('decideLease', () => {
    function decide(current: Lease | undefined, observed: LeaseObservation | undefined, now: number) {
      return decideLease({ lease: current, observed, identity: 'me', now, leaseDurationMs: DURATION });
    }

    it('creates an absent lease', () =>
      assert.deepEqual(decide(undefined, undefined, 0), { action: 'create' }));
    it('renews its own lease', () =>
      assert.deepEqual(decide(lease('me'), { record: '', at: 0 }, 99_000), { action: 'renew' }));
    it('acquires a released lease at once', () =>
      assert.deepEqual(decide(lease(''), { record: '', at: 1000 }, 1000), { action: 'acquire' }));
    it('waits while another holder is fresh', () =>
      assert.deepEqual(decide(lease('other'), { record: '', at: 1000 }, 10_000), {
        action: 'wait',
        holder: 'other',
        expiresInMs: 6000,
      }));
    it('acquires once the record has not changed for the lease duration', () =>
      assert.deepEqual(decide(lease('other'), { record: '', at: 1000 }, 16_000), { action: 'acquire' }));
    it("uses the lease's own duration", () =>
      assert.deepEqual(decide(lease('other', { leaseDurationSeconds: 1 }), { record: '', at: 0 }, 1000), {
        action: 'acquire',
      }));

    it('judges expiry by the local clock, not by the holder’s renewTime', () => {
      // The holder's wall clock is far behind ours; its renewTime looks ancient but it keeps renewing.
      const clock = new ManualClock(0);
      let observed: LeaseObservation | undefined;
      for (let round = 1; round <= 20; round++) {
        const current = lease('other', {
          renewTime: `2000-01-01T00:00:${String(round).padStart(2, '0')}.000000Z`,
        });
        observed = observeLease(current, observed, clock.now());
        assert.equal(decide(current, observed, clock.now()).action, 'wait', `round ${round}`);
        clock.advance(2000);
      }
      // It stops renewing: the record stays the same, and after 15 s we take over.
      const frozen = lease('other', { renewTime: '2000-01-01T00:00:20.000000Z' });
      const seenAt = observed?.at ?? 0;
      clock.advanceTo(seenAt + DURATION - 1);
      observed = observeLease(frozen, observed, clock.now());
      assert.equal(decide(frozen, observed, clock.now()).action, 'wait');
      clock.advance(1);
      observed = observeLease(frozen, observed, clock.now());
      assert.equal(decide(frozen, observed, clock.now()).action, 'acquire');
    });
  });

  it('leaseSpecFor counts transitions on acquire and keeps acquireTime on renew', () => {
    const who = { identity: 'me', leaseDurationSeconds: 15, wallTime: 'T2' };
    const current = { holderIdentity: 'other', acquireTime: 'T0', renewTime: 'T1', leaseTransitions: 3 };
    assert.deepEqual(leaseSpecFor('acquire', current, who), {
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      acquireTime: 'T2',
      renewTime: 'T2',
      leaseTransitions: 4,
    });
    const mine = { ...current, holderIdentity: 'me' };
    assert.equal(leaseSpecFor('renew', mine, who).acquireTime, 'T0');
    assert.equal(leaseSpecFor('renew', mine, who).leaseTransitions, 3);
    assert.equal(leaseSpecFor('create', undefined, who).leaseTransitions, 0);
  });

  it('microTime has six fractional digits', () =>
    assert.equal(microTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))), '2026-01-02T03:04:05.678000Z'));

  it('defaultIdentity is POD_NAME, else hostname-pid', () => {
    assert.equal(defaultIdentity({ POD_NAME: 'op-1' }), 'op-1');
    assert.match(defaultIdentity({}), new RegExp(`-${process.pid}$`));
  });

  describe('LeaderElector loop', () => {
    /** A lease store answering as the API server does: resourceVersion checked on PUT. */
    class LeaseServer {
      stored: Lease | undefined;
      version = 0;
      failing = false;
      readonly api = {
        request: (spec: RequestSpec): Promise<unknown> => Promise.resolve().then(() => this.handle(spec)),
      } as unknown as KubeApi;

      handle(spec: RequestSpec): unknown {
        const fail = (status: number, reason: string) =>
          new KubeApiError({
            status,
            reason,
            message: reason,
            method: spec.method ?? 'GET',
            path: spec.path,
          });
        if (this.failing) throw fail(503, 'ServiceUnavailable');
        if ((spec.method ?? 'GET') === 'GET') {
          if (this.stored === undefined) throw fail(404, 'NotFound');
          return structuredClone(this.stored);
        }
        const body = structuredClone(spec.body) as Lease;
        if (spec.method === 'POST' && this.stored !== undefined) throw fail(409, 'AlreadyExists');
        if (spec.method === 'PUT' && body.metadata.resourceVersion !== this.stored?.metadata.resourceVersion)
          throw fail(409, 'Conflict');
        body.metadata.resourceVersion = String(++this.version);
        this.stored = body;
        return structuredClone(body);
      }
    }

    const flush = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };

    function elector(server: LeaseServer, clock: ManualClock, identity: string, events: string[]) {
      return new LeaderElector({
        api: server.api,
        namespace: 'ops',
        name: 'streamroute-operator',
        identity,
        clock,
        // renewTime from the manual clock: with real time, renewals within one real millisecond would
        // write the same record, which the others cannot tell from no renewal at all
        wallClock: () => new Date(clock.now()),
        onStartedLeading: () => events.push(`${identity} leads`),
        onStoppedLeading: () => events.push(`${identity} stops`),
      });
    }

    async function elapse(clock: ManualClock, ms: number): Promise<void> {
      for (let t = 0; t < ms; t += 500) {
        await flush();
        clock.advance(500);
      }
      await flush();
    }

    it('one of two leads; a crashed leader is replaced after the lease duration; a release hands over fast', async () => {
      const clock = new ManualClock(0);
      const server = new LeaseServer();
      const events: string[] = [];
      const a = elector(server, clock, 'a', events);
      const b = elector(server, clock, 'b', events);
      a.start();
      await flush();
      b.start();
      await elapse(clock, 6000);
      assert.deepEqual(events, ['a leads']);
      assert.equal(server.stored?.spec?.holderIdentity, 'a');
      await a.stop({ release: false });
      assert.deepEqual(events, ['a leads', 'a stops']);
      await elapse(clock, 12_000);
      assert.equal(b.isLeader, false, 'not before the lease expires');
      // b last saw the record change at its read after a's last renewal (up to one retry period late),
      // and acquires at its first retry after that plus 15 s: at most 15 + 2 × 2 s after the crash.
      await elapse(clock, 7000);
      assert.equal(b.isLeader, true);
      assert.equal(server.stored?.spec?.leaseTransitions, 1);
      const c = elector(server, clock, 'c', events);
      c.start();
      await elapse(clock, 4000);
      await b.stop();
      assert.equal(server.stored?.spec?.holderIdentity, '');
      await elapse(clock, 2500);
      assert.equal(c.isLeader, true);
      await c.stop();
    });

    it('stops leading when it cannot renew within the deadline', async () => {
      const clock = new ManualClock(0);
      const server = new LeaseServer();
      const events: string[] = [];
      const a = elector(server, clock, 'a', events);
      a.start();
      await elapse(clock, 1000);
      assert.equal(a.isLeader, true);
      server.failing = true;
      await elapse(clock, 8500);
      assert.equal(a.isLeader, true, 'last renewal at 0 s: leads until 10 s');
      await elapse(clock, 1000);
      assert.equal(a.isLeader, false);
      server.failing = false;
      await elapse(clock, 3000);
      assert.equal(a.isLeader, true, 'renews again: it still holds the record');
      await a.stop();
    });

    it('stops leading within the deadline while a renewal hangs', async () => {
      const clock = new ManualClock(0);
      const server = new LeaseServer();
      const events: string[] = [];
      const a = elector(server, clock, 'a', events);
      a.start();
      await elapse(clock, 1000);
      assert.equal(a.isLeader, true);
      const handle = server.api.request.bind(server.api);
      server.api.request = () => new Promise(() => undefined);
      await elapse(clock, 8500);
      assert.equal(a.isLeader, true);
      await elapse(clock, 1000);
      assert.equal(a.isLeader, false, 'stepped down 10 s after the last renewal');
      server.api.request = handle;
      await elapse(clock, 6000);
      assert.equal(a.isLeader, true);
      await a.stop();
    });

    it('stops leading at once when another replica took the lease', async () => {
      const clock = new ManualClock(0);
      const server = new LeaseServer();
      const events: string[] = [];
      const a = elector(server, clock, 'a', events);
      a.start();
      await elapse(clock, 1000);
      server.handle({ method: 'PUT', path: '', body: { ...server.stored, spec: { holderIdentity: 'z' } } });
      await elapse(clock, 2000);
      assert.deepEqual(events, ['a leads', 'a stops']);
      await a.stop();
    });
  });
});
