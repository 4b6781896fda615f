// The families that were renamed, relabelled or removed when every metric took the one label scheme
// (decision 0024), for people upgrading dashboards and alerts. docs/metrics.md prints them; the metric
// docs test checks that no process registers an old name any more and that every new one is documented.

export interface MetricRename {
  /** The family and labels as they were. */
  old: string;
  /** The family (and label values) that says the same now. */
  now: string;
  /** The family name in `now` (checked against the documented families). */
  family: string;
  /** What changed besides the name, when something did. */
  note: string;
}

const COMPONENT = 'domain="<domain>", kind="<kind>", name="<ingestor>"';

export const METRIC_RENAMES: readonly MetricRename[] = [
  {
    old: 'streamroute_http_ingestor_requests_total{ingestor="<domain>/<ingestor>"}',
    now: `streamroute_payloads_total{${COMPONENT.replace('<kind>', 'http-ingestor')}}`,
    family: 'streamroute_payloads_total',
    note: 'a duplicate: bodies answered 202 are counted when the ingestor takes them (after an ON QUIESCE BUFFER, on resume); a body dropped while quiesced is a drop',
  },
  {
    old: 'streamroute_http_ingestor_received_bytes_total{ingestor="<domain>/<ingestor>"}',
    now: `streamroute_payload_bytes_total{${COMPONENT.replace('<kind>', 'http-ingestor')}}`,
    family: 'streamroute_payload_bytes_total',
    note: 'a duplicate, as above',
  },
  {
    old: 'streamroute_http_ingestor_aborted_total{ingestor="<domain>/<ingestor>"}',
    now: `streamroute_http_ingestor_requests_failed_total{${COMPONENT.replace('<kind>', 'http-ingestor')}, reason="aborted"}`,
    family: 'streamroute_http_ingestor_requests_failed_total',
    note: 'one family by reason',
  },
  {
    old: 'streamroute_http_ingestor_too_large_total{ingestor="<domain>/<ingestor>"}',
    now: `streamroute_http_ingestor_requests_failed_total{${COMPONENT.replace('<kind>', 'http-ingestor')}, reason="body_too_large"}`,
    family: 'streamroute_http_ingestor_requests_failed_total',
    note: 'one family by reason; `reason="deliver_failed"` (answered 500) is new',
  },
  {
    old: 'streamroute_syslog_frames_total{domain, ingestor, protocol}',
    now: `streamroute_payloads_total{${COMPONENT.replace('<kind>', 'syslog-ingestor')}}`,
    family: 'streamroute_payloads_total',
    note: 'a duplicate: frames are counted when the ingestor takes them; a frame dropped while quiesced is a drop. Its bytes: `streamroute_payload_bytes_total`',
  },
  ...[
    'streamroute_syslog_connections_total',
    'streamroute_syslog_connections_closed_total',
    'streamroute_syslog_tls_handshake_failures_total',
  ].map((family) => ({
    old: `${family}{domain, ingestor="<ingestor>", protocol}`,
    now: `${family}{${COMPONENT.replace('<kind>', 'syslog-ingestor')}, protocol}`,
    family,
    note: 'relabelled: `ingestor` is `name`, with `kind`',
  })),
  ...[
    'streamroute_connections_refused_total',
    'streamroute_connections_timed_out_total',
    'streamroute_connections_open',
  ].map((family) => ({
    old: `${family}{listener="syslog:<domain>/<ingestor>"}`,
    now: `${family}{listener="syslog", ${COMPONENT.replace('<kind>', 'syslog-ingestor')}}`,
    family,
    note: 'relabelled: the other listeners (`http`, `https`, `admin`, `health`) are unchanged',
  })),
];
