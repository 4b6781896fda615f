// Writes this node's DataplaneNode report: creates the object (named after the node) and merge-patches
// its status subresource when the ReportSchedule says so. Component states come from the data plane's
// DESCRIBE; they change without an event (a listener starts retrying), so they are compared with the last
// written report every `pollMs` — locally, without an API call. A change write whose report equals the
// last one written is skipped; a heartbeat is always written. Writes run one at a time.
import type { Logger } from 'pino';
import type { ComponentDescription, DescribedKind } from '../core/status.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { API_VERSION, customPath, DATAPLANE_NODE_PLURAL, MANAGED_BY } from './contract.js';
import type { GraphSync } from './graph-sync.js';
import { isStatus, KubeApiError, type KubeApi } from '../kube-client/kube-api.js';
import { boundedReport, componentReport, reportContent, type NodeReportStatus } from './node-report.js';
import { ReportSchedule, type ReportTiming, type WriteReason } from './report-schedule.js';
import { fleetPolicy } from './fleet-policy.js';
import { urgencyOf } from './report-urgency.js';

export interface NodeReporterOptions {
  api: Pick<KubeApi, 'request'>;
  nodeName: string;
  describe: (domain: string, kind: DescribedKind, name: string) => Promise<ComponentDescription | undefined>;
  /** `fleetNodes`: the fleet size the index publishes (absent: the defaults of a small fleet). */
  sync: Pick<GraphSync, 'states' | 'runningGraph'> & Partial<Pick<GraphSync, 'fleetNodes'>>;
  logger: Logger;
  clock: Clock;
  random: () => number;
  /** Wall-clock time as RFC 3339 (heartbeatTime). */
  now: () => string;
  timing?: Partial<ReportTiming>;
  /** How often component states are compared with the last report (default 10 s). */
  pollMs?: number;
}

export class NodeReporter {
  readonly #o: NodeReporterOptions;
  readonly #log: Logger;
  readonly #schedule: ReportSchedule;
  #written: string | undefined;
  #created = false;
  #heartbeatOwed = false;
  #tail: Promise<void> = Promise.resolve();
  /** Classifications of changes run one at a time, in order. */
  #classifying: Promise<void> = Promise.resolve();
  /** A graph version applied since the last write is reported at once (this node is in the sample). */
  #sampled = false;
  #poll: TimerHandle | undefined;
  #stopped = false;
  /** The last status written (tests, logs). */
  lastWritten: NodeReportStatus | undefined;
  /** Writes that went through. */
  writes = 0;

  constructor(options: NodeReporterOptions) {
    this.#o = options;
    this.#log = options.logger.child({ component: 'node-report', node: options.nodeName });
    this.#schedule = new ReportSchedule({
      clock: options.clock,
      random: options.random,
      ...(options.timing === undefined ? {} : { timing: options.timing }),
      // a fixed period given by the caller (tests) wins over the fleet's
      ...(options.timing?.heartbeatMs === undefined
        ? { heartbeatMs: () => fleetPolicy(options.sync.fleetNodes?.()).heartbeatMs }
        : {}),
      write: (reason) => void this.#enqueue(reason),
    });
  }

  /** Writes the first report as soon as possible and starts comparing states. */
  start(): void {
    this.#schedule.changed();
    this.#armPoll();
  }

  /** Something the report shows may have changed: written at once, later, or not at all (urgencyOf). */
  changed(): void {
    this.#classifying = this.#classifying.then(() => this.#compare());
  }

  /**
   * A new graph version runs: this node reports it at once (after a random 0–5 s) with the fleet's
   * probability, so a fleet's first reports of a version are a sample of about IMMEDIATE_REPORTS nodes.
   */
  graphApplied(): void {
    if (this.#o.random() < fleetPolicy(this.#o.sync.fleetNodes?.()).immediateProbability)
      this.#sampled = true;
  }

  /** When the next heartbeat is due (ms on the clock; tests, the scale benchmark). */
  get heartbeatDueAt(): number | undefined {
    return this.#schedule.heartbeatDueAt;
  }

  /** Stops scheduling; resolves after a write in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#schedule.stop();
    if (this.#poll !== undefined) this.#o.clock.clearTimeout(this.#poll);
    await this.#tail;
  }

  /** The report as it would be written now. */
  async collect(): Promise<NodeReportStatus> {
    const descriptions: Promise<ComponentDescription | undefined>[] = [];
    for (const { domain } of this.#o.sync.states()) {
      const graph = this.#o.sync.runningGraph(domain) as Record<string, unknown> | undefined;
      if (graph === undefined) continue;
      for (const [field, kind] of COMPONENT_FIELDS) {
        const names = Object.keys(graph[field] ?? {});
        for (const name of names) descriptions.push(this.#o.describe(domain, kind, name));
      }
    }
    const components = (await Promise.all(descriptions)).flatMap((each) =>
      each === undefined ? [] : [componentReport(each)],
    );
    return boundedReport({ heartbeatTime: this.#o.now(), domains: this.#o.sync.states(), components });
  }

  #armPoll(): void {
    if (this.#stopped) return;
    this.#poll = this.#o.clock.setTimeout(() => {
      this.#poll = undefined;
      this.changed();
      void this.#classifying.finally(() => this.#armPoll());
    }, this.#o.pollMs ?? 10_000);
  }

  async #compare(): Promise<void> {
    if (this.#stopped) return;
    try {
      const current = await this.collect();
      const urgency = this.#written === undefined ? 'now' : urgencyOf(this.lastWritten, current);
      if (urgency === 'now') this.#schedule.changed();
      else if (urgency === 'later' && this.#sampled) this.#schedule.graphApplied();
      else if (urgency === 'later') this.#schedule.deferred();
    } catch (error: unknown) {
      this.#log.warn(
        { event: 'report_collect_failed', error: errorText(error) },
        'collecting the report failed',
      );
    }
  }

  #enqueue(reason: WriteReason): Promise<void> {
    this.#tail = this.#tail.then(() => this.#write(reason));
    return this.#tail;
  }

  async #write(reason: WriteReason): Promise<void> {
    if (this.#stopped) return;
    const heartbeat = reason === 'heartbeat' || this.#heartbeatOwed;
    try {
      const status = await this.collect();
      const content = reportContent(status);
      if (!heartbeat && content === this.#written) return;
      await this.#send(status);
      this.#written = content;
      this.#heartbeatOwed = false;
      this.#sampled = false;
      this.lastWritten = status;
      this.writes++;
      this.#schedule.written();
      this.#log.debug(
        {
          event: 'report_written',
          reason,
          domains: status.domains.length,
          components: status.components.length,
        },
        'node report written',
      );
    } catch (error: unknown) {
      if (heartbeat) this.#heartbeatOwed = true;
      this.#log.warn(
        { event: 'report_write_failed', reason, error: errorText(error) },
        'writing the node report failed; retrying',
      );
      this.#schedule.failed();
    }
  }

  async #send(status: NodeReportStatus): Promise<void> {
    if (!this.#created) await this.#ensureNode();
    const body = { status: { ...status, omittedComponents: status.omittedComponents ?? null } };
    const path = `${customPath(DATAPLANE_NODE_PLURAL, undefined, this.#o.nodeName)}/status`;
    try {
      await this.#o.api.request({ method: 'PATCH', path, body, contentType: 'application/merge-patch+json' });
    } catch (error: unknown) {
      // The object was deleted: create it again on the next write.
      if (isStatus(error, 404)) this.#created = false;
      throw error;
    }
  }

  async #ensureNode(): Promise<void> {
    const body = {
      apiVersion: API_VERSION,
      kind: 'DataplaneNode',
      metadata: { name: this.#o.nodeName, labels: { ...MANAGED_BY } },
      spec: { nodeName: this.#o.nodeName },
    };
    try {
      await this.#o.api.request({ method: 'POST', path: customPath(DATAPLANE_NODE_PLURAL), body });
      this.#log.info({ event: 'node_report_created' }, 'DataplaneNode created');
    } catch (error: unknown) {
      if (!isStatus(error, 409)) throw error;
    }
    this.#created = true;
  }
}

const COMPONENT_FIELDS: readonly [string, DescribedKind][] = [
  ['httpIngestors', 'ingestor'],
  ['syslogIngestors', 'ingestor'],
  ['topicIngestors', 'ingestor'],
  ['emitters', 'emitter'],
];

/** The report without its heartbeat time: what "changed" compares. */

function errorText(error: unknown): string {
  if (error instanceof KubeApiError) return `${error.status} ${error.reason}`;
  return error instanceof Error ? error.name : 'unknown';
}
