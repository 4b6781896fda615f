import assert from 'node:assert/strict';
import {
  boundedReport,
  componentReport,
  reportBytes,
  reportContent,
  type ComponentReport,
} from './node-report.js';

const HEARTBEAT = '2026-11-24T18:00:00.000Z';

function component(name: string, state: string, extra: Partial<ComponentReport> = {}): ComponentReport {
  return { domain: 'shop', kind: 'HttpIngestor', name, state, ...extra };
}

describe('boundedReport', () => {
  it('keeps a small report whole, sorted by domain, kind and name, without omittedComponents', () => {
    const status = boundedReport({
      heartbeatTime: HEARTBEAT,
      domains: [
        { domain: 'b', graphVersion: 1 },
        { domain: 'a', graphVersion: 2, appliedAt: HEARTBEAT },
      ],
      components: [component('z', 'Running'), { ...component('y', 'Retrying'), kind: 'Emitter' }],
    });
    assert.deepEqual(
      status.domains.map((d) => d.domain),
      ['a', 'b'],
    );
    assert.deepEqual(
      status.components.map((c) => c.name),
      ['y', 'z'],
    );
    assert.equal(status.omittedComponents, undefined);
  });

  it('stays within 4 KiB by dropping Running components first, counting what it left out', () => {
    const components = [
      ...Array.from({ length: 60 }, (_, i) => component(`running-${String(i).padStart(2, '0')}`, 'Running')),
      component('broken', 'Retrying', { transientError: 'EADDRINUSE: address in use', backoffMs: 4000 }),
      component('starting', 'Starting'),
    ];
    const status = boundedReport({
      heartbeatTime: HEARTBEAT,
      domains: [{ domain: 'shop', graphVersion: 7, appliedAt: HEARTBEAT }],
      components,
    });
    assert.ok(reportBytes(status) <= 4096, `${reportBytes(status)} bytes`);
    const names = status.components.map((c) => c.name);
    assert.ok(names.includes('broken') && names.includes('starting'), 'components not Running are kept');
    assert.equal(status.omittedComponents, components.length - status.components.length);
    assert.ok(status.omittedComponents > 0);
    assert.ok(status.components.length > 2, 'as many Running ones as fit are kept');
    // One more component would not have fitted.
    const kept = new Set(names);
    const next = components.find((c) => !kept.has(c.name))!;
    assert.ok(
      reportBytes({
        ...status,
        components: [...status.components, next],
        omittedComponents: status.omittedComponents - 1,
      }) > 4096,
    );
  });

  it('drops components that are not Running only when the Running ones are all gone', () => {
    const components = Array.from({ length: 80 }, (_, i) =>
      component(`retrying-${i}`, 'Retrying', { transientError: 'ECONNREFUSED: connection refused' }),
    );
    components.push(component('fine', 'Running'));
    const status = boundedReport({ heartbeatTime: HEARTBEAT, domains: [], components });
    assert.ok(reportBytes(status) <= 4096);
    assert.ok(!status.components.some((c) => c.state === 'Running'));
    assert.equal(status.omittedComponents, 81 - status.components.length);
  });

  it('shortens domain errors when domains alone are over the bound', () => {
    const domains = Array.from({ length: 8 }, (_, i) => ({
      domain: `d${i}`,
      graphVersion: 1,
      error: `graph version 2: ${'x'.repeat(1000)}`,
    }));
    const status = boundedReport({ heartbeatTime: HEARTBEAT, domains, components: [] });
    assert.ok(reportBytes(status) <= 4096);
    assert.equal(status.domains.length, 8, 'every domain is still reported');
    assert.ok(status.domains.every((d) => d.error !== undefined && d.error.length <= 256));
  });
});

describe('componentReport', () => {
  it('maps a DESCRIBE answer to the CRD fields: kind name, error code and message, backoff', () => {
    assert.deepEqual(
      componentReport({
        domain: 'shop',
        kind: 'syslog-ingestor',
        name: 'audit-in',
        graphVersion: 3,
        state: 'Retrying',
        transientError: { code: 'EADDRINUSE', message: 'address 0.0.0.0:514 in use', since: HEARTBEAT },
        backoffMs: 2000,
        metrics: { payloads: 4, records_in: 7, message_errors: 1, drops: 2, 'drops.quiesce_drop': 2 },
        details: {},
      }),
      {
        domain: 'shop',
        kind: 'SyslogIngestor',
        name: 'audit-in',
        state: 'Retrying',
        transientError: 'EADDRINUSE: address 0.0.0.0:514 in use',
        backoffMs: 2000,
        metrics: { recordsIn: 7, recordsOut: 0, messageErrors: 1, drops: 2 },
      },
    );
  });

  it('counts an emitter’s sent records as its records out, and its full-queue drops as drops', () => {
    const report = componentReport({
      domain: 'shop',
      kind: 'emitter',
      name: 'out',
      graphVersion: 1,
      state: 'Running',
      transientError: null,
      backoffMs: null,
      metrics: { records_in: 9, records_sent: 8, dropped_queue_full: 1 },
      details: {},
    });
    assert.deepEqual(report.metrics, { recordsIn: 9, recordsOut: 8, messageErrors: 0, drops: 1 });
  });
});

describe('reportContent', () => {
  it('ignores the heartbeat time and the counters, so moving counters never cause a write', () => {
    const component = (recordsIn: number): ComponentReport => ({
      domain: 'shop',
      kind: 'Emitter',
      name: 'out',
      state: 'Running',
      metrics: { recordsIn, recordsOut: recordsIn, messageErrors: 0, drops: 0 },
    });
    const at = (time: string, recordsIn: number) =>
      reportContent({ heartbeatTime: time, domains: [], components: [component(recordsIn)] });
    assert.equal(at('2026-11-24T10:00:00Z', 1), at('2026-11-24T10:05:00Z', 500));
    assert.notEqual(
      at('2026-11-24T10:00:00Z', 1),
      reportContent({ heartbeatTime: '', domains: [], components: [{ ...component(1), state: 'Retrying' }] }),
    );
  });
});
