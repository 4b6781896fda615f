// The status of a DataplaneNode (operator/api/kinds/dataplane-node.ts), built from what the node runs and
// bounded: its JSON never exceeds NODE_REPORT_MAX_BYTES (4 KiB). When it would, components that are
// Running go first (the operator reads a missing component as nothing to report), then the others, each
// dropped one counted in `omittedComponents`; then domain errors are shortened. Pure: no clock, no I/O.
import type { ComponentDescription } from '../core/status.js';
import { NODE_REPORT_MAX_BYTES } from './contract.js';
import type { DomainState } from './graph-sync.js';

export interface ComponentReport {
  domain: string;
  /** HttpIngestor, SyslogIngestor or Emitter. */
  kind: string;
  name: string;
  state: string;
  transientError?: string;
  backoffMs?: number;
  /**
   * Edge metrics (totals since the component started on this node). They ride along with writes that
   * happen anyway and never cause one: a busy node's counters move every second, and a write per move
   * would break the fleet's write budget (docs/operator.md).
   */
  metrics?: EdgeMetrics;
}

export interface EdgeMetrics {
  recordsIn: number;
  recordsOut: number;
  messageErrors: number;
  drops: number;
}

export interface NodeReportStatus {
  heartbeatTime: string;
  domains: DomainState[];
  components: ComponentReport[];
  /**
   * Components left out to stay within 4 KiB (Running ones first). NOTE: the DataplaneNode CRD needs
   * `status.omittedComponents` (integer, minimum 0) or the API server prunes it.
   */
  omittedComponents?: number;
}

const KIND_NAMES: Record<ComponentDescription['kind'], string> = {
  'http-ingestor': 'HttpIngestor',
  'syslog-ingestor': 'SyslogIngestor',
  'topic-ingestor': 'TopicIngestor',
  emitter: 'Emitter',
};

const TRANSIENT_ERROR_MAX = 512;

/** A DESCRIBE answer as a report entry: the state and the transient error's code and message. */
export function componentReport(description: ComponentDescription): ComponentReport {
  const { transientError, backoffMs } = description;
  return {
    domain: description.domain,
    kind: KIND_NAMES[description.kind],
    name: description.name,
    state: description.state,
    ...(transientError === null
      ? {}
      : {
          transientError: `${transientError.code}: ${transientError.message}`.slice(0, TRANSIENT_ERROR_MAX),
        }),
    ...(backoffMs === null ? {} : { backoffMs: Math.max(0, Math.round(backoffMs)) }),
    metrics: edgeMetrics(description.metrics),
  };
}

/** The DESCRIBE counters a report carries; an emitter's records out are the records it sent. */
function edgeMetrics(metrics: Record<string, number>): EdgeMetrics {
  const count = (name: string): number => Math.max(0, Math.round(metrics[name] ?? 0));
  return {
    recordsIn: count('records_in'),
    recordsOut: count('records_out') || count('records_sent'),
    messageErrors: count('message_errors'),
    drops: count('drops') + count('dropped_queue_full'),
  };
}

/** What decides whether a report changed: everything but the heartbeat time and the counters. */
export function reportContent(status: NodeReportStatus): string {
  const components = status.components.map(({ metrics: _metrics, ...rest }) => rest);
  return JSON.stringify({ ...status, heartbeatTime: undefined, components });
}

export function reportBytes(status: NodeReportStatus): number {
  return Buffer.byteLength(JSON.stringify(status), 'utf8');
}

/** The status, within `maxBytes`; domains and components in a stable order (domain, kind, name). */
export function boundedReport(
  input: { heartbeatTime: string; domains: DomainState[]; components: ComponentReport[] },
  maxBytes = NODE_REPORT_MAX_BYTES,
): NodeReportStatus {
  const domains = [...input.domains].sort((a, b) => compare(a.domain, b.domain));
  const components = [...input.components].sort(
    (a, b) => compare(a.domain, b.domain) || compare(a.kind, b.kind) || compare(a.name, b.name),
  );
  const status: NodeReportStatus = { heartbeatTime: input.heartbeatTime, domains, components };
  if (reportBytes(status) <= maxBytes) return status;
  // Not Running first, then Running: dropped from the end, Running ones go first.
  status.components = [
    ...components.filter((each) => each.state !== 'Running'),
    ...components.filter((each) => each.state === 'Running'),
  ];
  let omitted = 0;
  while (status.components.length > 0 && reportBytes({ ...status, omittedComponents: omitted }) > maxBytes) {
    status.components = status.components.slice(0, -1);
    omitted++;
  }
  if (omitted > 0) status.omittedComponents = omitted;
  status.components = sortComponents(status.components);
  shortenDomainErrors(status, maxBytes);
  return status;
}

function sortComponents(components: ComponentReport[]): ComponentReport[] {
  return components.sort(
    (a, b) => compare(a.domain, b.domain) || compare(a.kind, b.kind) || compare(a.name, b.name),
  );
}

/** Last resort (many domains with long errors): shorten errors, then leave out the latest domains. */
function shortenDomainErrors(status: NodeReportStatus, maxBytes: number): void {
  for (const limit of [256, 64, 0]) {
    if (reportBytes(status) <= maxBytes) return;
    status.domains = status.domains.map((domain) => {
      if (domain.error === undefined || domain.error.length <= limit) return domain;
      const { error, ...rest } = domain;
      return limit === 0 ? rest : { ...rest, error: `${error.slice(0, limit - 1)}…` };
    });
  }
  while (status.domains.length > 0 && reportBytes(status) > maxBytes)
    status.domains = status.domains.slice(0, -1);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
