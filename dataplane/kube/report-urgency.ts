// Whether a changed node report is written at once or can wait for the node's next heartbeat
// (docs/decisions/0018-fleet-sized-reports.md). Problems are written at once: a graph version refused or
// not loaded (a domain error) and a component that is not running (Retrying, Stopped, Suspended, or with a
// transient error) — and so is their clearing, or the roll-up would show a problem that is gone. Anything
// else (a new graph version running well, components added or removed while Running) can wait. Starting
// and Quiescing are passing states of a hot reload (milliseconds): they are not problems.
// Pure: no clock, no I/O.
import { reportContent, type NodeReportStatus } from './node-report.js';

export type Urgency = 'now' | 'later' | 'none';

const PASSING_STATES = new Set(['Running', 'Starting', 'Quiescing']);

/** The report's problems as comparable text (empty: none). */
export function reportProblems(status: NodeReportStatus): string {
  const domains = status.domains
    .filter((domain) => domain.error !== undefined)
    .map((domain) => [domain.domain, domain.error]);
  const components = status.components
    .filter((c) => !PASSING_STATES.has(c.state) || c.transientError !== undefined)
    .map((c) => [c.domain, c.kind, c.name, c.state, c.transientError ?? '']);
  return domains.length === 0 && components.length === 0 ? '' : JSON.stringify({ domains, components });
}

/**
 * How soon `current` must be written, given the report last written (undefined: none yet, so at once):
 * 'none' when nothing the roll-up shows changed, 'now' when the problems changed, else 'later'.
 */
export function urgencyOf(written: NodeReportStatus | undefined, current: NodeReportStatus): Urgency {
  if (written === undefined) return 'now';
  if (reportContent(written) === reportContent(current)) return 'none';
  return reportProblems(written) === reportProblems(current) ? 'later' : 'now';
}
