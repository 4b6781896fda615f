// DataplaneNode: one node's runtime report, written by its data-plane pod (cluster-scoped).
import { int, list, object, optional, str } from '../dsl.js';
import { ageColumn, defineKind } from '../kind.js';

const domainReport = object(
  {
    domain: str('Domain (namespace).'),
    graphVersion: int('Graph version the node runs.', { minimum: 0 }),
    appliedAt: optional(str('When the version was applied.', { format: 'date-time' })),
    error: optional(str('Why the newest graph could not be applied, if so.', { maxLength: 1024 })),
  },
  'What one domain runs on this node.',
);

const componentReport = object(
  {
    domain: str('Domain (namespace).'),
    kind: str('HttpIngestor, SyslogIngestor, TopicIngestor or Emitter.'),
    name: str('Resource name.'),
    state: str('Starting, Running, Quiescing, Suspended, Retrying or Stopped.'),
    transientError: optional(str('Current transient error.', { maxLength: 512 })),
    backoffMs: optional(int('Current reconnect backoff in milliseconds.', { minimum: 0 })),
    metrics: optional(
      object(
        {
          recordsIn: int('Records that came in.', { minimum: 0 }),
          recordsOut: int('Records that went out (for an emitter: sent).', { minimum: 0 }),
          messageErrors: int('Per-record failures.', { minimum: 0 }),
          drops: int('Records dropped (quiesce, a full queue).', { minimum: 0 }),
        },
        'Edge metrics since the component started on this node; updated with writes that happen anyway (a change, the heartbeat), never the cause of one.',
      ),
    ),
  },
  'Runtime state of one ingestor or emitter on this node.',
);

export const dataplaneNodeKind = defineKind({
  kind: 'DataplaneNode',
  plural: 'dataplanenodes',
  singular: 'dataplanenode',
  shortNames: ['dpn'],
  scope: 'Cluster',
  description: 'A data-plane node’s report: the graph versions it runs and the state of its components.',
  spec: object({ nodeName: str('The Kubernetes node.') }, 'Which node this report is for.'),
  status: object(
    {
      heartbeatTime: optional(str('Last report.', { format: 'date-time' })),
      domains: optional(list(domainReport, 'Per domain.', { maxItems: 1000 })),
      components: optional(list(componentReport, 'Per ingestor and emitter.', { maxItems: 1000 })),
      omittedComponents: optional(
        int('Components left out to keep the report within 4 KiB (Running ones first).', { minimum: 0 }),
      ),
    },
    'The report.',
  ),
  printerColumns: [{ name: 'Heartbeat', type: 'date', jsonPath: '.status.heartbeatTime' }, ageColumn],
});
