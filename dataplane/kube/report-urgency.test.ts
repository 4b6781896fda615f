import assert from 'node:assert/strict';
import type { ComponentReport, NodeReportStatus } from './node-report.js';
import { reportProblems, urgencyOf } from './report-urgency.js';

const component = (name: string, state: string, transientError?: string): ComponentReport => ({
  domain: 'shop',
  kind: 'HttpIngestor',
  name,
  state,
  ...(transientError === undefined ? {} : { transientError }),
  metrics: { recordsIn: 1, recordsOut: 1, messageErrors: 0, drops: 0 },
});

function status(version: number, components: ComponentReport[], error?: string): NodeReportStatus {
  return {
    heartbeatTime: `2026-11-27T08:00:0${version}Z`,
    domains: [{ domain: 'shop', graphVersion: version, ...(error === undefined ? {} : { error }) }],
    components,
  };
}

describe('urgencyOf', () => {
  const v1 = status(1, [component('a', 'Running')]);

  it('the first report is written at once', () => {
    assert.equal(urgencyOf(undefined, v1), 'now');
  });

  it('a new graph version running well, or Running components added, can wait', () => {
    assert.equal(urgencyOf(v1, status(2, [component('a', 'Running')])), 'later');
    assert.equal(urgencyOf(v1, status(2, [component('a', 'Running'), component('b', 'Running')])), 'later');
    assert.equal(urgencyOf(v1, status(2, [component('a', 'Running'), component('b', 'Starting')])), 'later');
  });

  it('only the heartbeat time or the counters moved: nothing to write', () => {
    const later = status(1, [
      { ...component('a', 'Running'), metrics: { recordsIn: 9, recordsOut: 9, messageErrors: 0, drops: 0 } },
    ]);
    assert.equal(urgencyOf(v1, { ...later, heartbeatTime: 'x' }), 'none');
  });

  it('a refused graph, a component not running or with a transient error is written at once — and so is its clearing', () => {
    const refused = status(1, [component('a', 'Running')], 'graph version 2: refused');
    const retrying = status(2, [component('a', 'Retrying', 'EADDRINUSE: taken')]);
    const stopped = status(2, [component('a', 'Stopped')]);
    for (const problem of [refused, retrying, stopped]) {
      assert.equal(urgencyOf(v1, problem), 'now');
      assert.equal(urgencyOf(problem, status(2, [component('a', 'Running')])), 'now', 'cleared');
    }
    assert.equal(
      urgencyOf(retrying, status(3, [component('a', 'Retrying', 'EADDRINUSE: taken')])),
      'later',
      'the same problem on a new version',
    );
  });

  it('reportProblems is empty for a healthy report', () => {
    assert.equal(reportProblems(v1), '');
    assert.notEqual(reportProblems(status(1, [component('a', 'Suspended')])), '');
  });
});
