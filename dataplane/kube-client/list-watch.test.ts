import assert from 'node:assert/strict';
import { ManualClock } from '../core/clock.js';
import { KubeApiError, type RequestSpec, type WatchEvent } from './kube-api.js';
import { runListWatch, type KubeObject } from './list-watch.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type Step =
  | { list: { resourceVersion: string; names: string[] } }
  | { watch: WatchEvent<KubeObject>[] }
  | { fail: number };

/** Answers requests from a script, one step per request; stops the loop when the script ends. */
class ScriptedApi {
  readonly calls: string[] = [];
  constructor(
    readonly steps: Step[],
    readonly controller: AbortController,
  ) {}

  #next(kind: string, spec: RequestSpec): Step | undefined {
    this.calls.push(`${kind} rv=${String(spec.query?.resourceVersion ?? '-')}`);
    const step = this.steps.shift();
    if (step === undefined) this.controller.abort();
    return step;
  }

  request<T>(spec: RequestSpec): Promise<T> {
    const step = this.#next('list', spec);
    if (step === undefined) return Promise.reject(new Error('aborted'));
    if ('fail' in step) return Promise.reject(failure(step.fail));
    if (!('list' in step)) throw new Error('expected a list step');
    const items = step.list.names.map((name) => ({
      metadata: { name, resourceVersion: step.list.resourceVersion },
    }));
    return Promise.resolve({ metadata: { resourceVersion: step.list.resourceVersion }, items } as T);
  }

  watch<T>(spec: RequestSpec, onEvent: (event: WatchEvent<T>) => void): Promise<void> {
    const step = this.#next('watch', spec);
    if (step === undefined) return Promise.reject(new Error('aborted'));
    if ('fail' in step) return Promise.reject(failure(step.fail));
    if (!('watch' in step)) throw new Error('expected a watch step');
    for (const event of step.watch) onEvent(event as WatchEvent<T>);
    return Promise.resolve();
  }
}

function failure(status: number): KubeApiError {
  return new KubeApiError({ status, reason: 'Failure', message: 'scripted', method: 'GET', path: '/x' });
}

const object = (name: string, rv: string): KubeObject => ({ metadata: { name, resourceVersion: rv } });

describe('runListWatch', () => {
  it('lists, watches from the list’s version, follows bookmarks, and relists after 410 Gone', async () => {
    const controller = new AbortController();
    const api = new ScriptedApi(
      [
        { list: { resourceVersion: '10', names: ['a'] } },
        {
          watch: [
            { type: 'ADDED', object: object('b', '11') },
            { type: 'BOOKMARK', object: object('', '15') },
          ],
        },
        { watch: [{ type: 'ERROR', object: { code: 410 } as unknown as KubeObject }] },
        { list: { resourceVersion: '20', names: ['a', 'b'] } },
      ],
      controller,
    );
    const seen: string[] = [];
    await runListWatch(
      { api: api as never, path: '/api/v1/configmaps', clock: new ManualClock(), signal: controller.signal },
      {
        onList: (items) => seen.push(`list ${items.map((item) => item.metadata.name).join(',')}`),
        onEvent: (type, item) => seen.push(`${type} ${item.metadata.name}`),
      },
    );
    assert.deepEqual(seen, ['list a', 'ADDED b', 'list a,b']);
    assert.deepEqual(api.calls, ['list rv=-', 'watch rv=10', 'watch rv=15', 'list rv=-', 'watch rv=20']);
  });

  it('retries a failed request after a doubling backoff, reset once a watch delivers', async () => {
    const controller = new AbortController();
    const clock = new ManualClock();
    const api = new ScriptedApi(
      [{ fail: 500 }, { fail: 500 }, { list: { resourceVersion: '1', names: [] } }, { watch: [] }],
      controller,
    );
    const backoffs: number[] = [];
    const done = runListWatch(
      {
        api: api as never,
        path: '/x',
        clock,
        signal: controller.signal,
        backoff: { initialMs: 100, maxMs: 150 },
      },
      { onList: () => {}, onEvent: () => {}, onError: (_error, ms) => backoffs.push(ms) },
    );
    await settle();
    assert.deepEqual(backoffs, [100]);
    clock.advance(100);
    await settle();
    assert.deepEqual(backoffs, [100, 150], 'doubled, capped at maxMs');
    clock.advance(150);
    await settle();
    assert.equal(api.calls.length, 4, 'a watch that ended without an event is not reopened at once');
    clock.advance(150);
    await done;
    assert.deepEqual(api.calls, ['list rv=-', 'list rv=-', 'list rv=-', 'watch rv=1', 'watch rv=1']);
  });

  it('hands the watch an aborted signal when the stop came while the list was in flight (regression)', async () => {
    const controller = new AbortController();
    let watchSignal: AbortSignal | undefined;
    const api = {
      request: () => {
        controller.abort(); // the node stops while its list is answered
        return Promise.resolve({ metadata: { resourceVersion: '1' }, items: [] });
      },
      watch: (_spec: RequestSpec, _onEvent: unknown, signal: AbortSignal) => {
        watchSignal = signal;
        return Promise.resolve();
      },
    };
    await runListWatch(
      { api: api as never, path: '/x', clock: new ManualClock(), signal: controller.signal },
      { onList: () => {}, onEvent: () => {} },
    );
    assert.equal(watchSignal?.aborted, true);
  });

  it('takes an empty metadata-only list (`items: null`) as empty (regression)', async () => {
    const controller = new AbortController();
    const lists: number[] = [];
    const api = {
      request: (spec: RequestSpec) => {
        assert.match(spec.accept ?? '', /as=PartialObjectMetadataList/);
        return Promise.resolve({ metadata: { resourceVersion: '1' }, items: null });
      },
      watch: (spec: RequestSpec) => {
        assert.match(spec.accept ?? '', /as=PartialObjectMetadata;/);
        controller.abort();
        return Promise.resolve();
      },
    };
    await runListWatch(
      {
        api: api as never,
        path: '/x',
        clock: new ManualClock(),
        signal: controller.signal,
        metadataOnly: true,
      },
      { onList: (items) => lists.push(items.length), onEvent: () => {} },
    );
    assert.deepEqual(lists, [0]);
  });
});
