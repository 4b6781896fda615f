// Status of ingestors and emitters: conditions plus the roll-up of the nodes running them.
import { int, list, object, optional, statusProperties, str } from '../dsl.js';
import { ageColumn, acceptedColumn, type PrinterColumn } from '../kind.js';

/** Roll-up of the data-plane nodes' reports; bounded whatever the number of nodes. */
const nodeRollup = object(
  {
    running: int('Nodes running the component.', { minimum: 0 }),
    withError: int('Nodes reporting a transient error.', { minimum: 0 }),
    total: optional(int('Nodes running the domain.', { minimum: 0 })),
    errorSamples: optional(
      list(
        object(
          {
            node: str('Node name.'),
            error: str('The transient error it reports.', { maxLength: 512 }),
          },
          'One node with a transient error.',
        ),
        'A few nodes with a transient error.',
        { maxItems: 5 },
      ),
    ),
    versions: optional(
      list(
        object(
          {
            version: int('Graph version.', { minimum: 0 }),
            nodes: int('Nodes running it.', { minimum: 0 }),
          },
          'One graph version and how many nodes run it.',
        ),
        'Graph versions the nodes run, newest first.',
        { maxItems: 10 },
      ),
    ),
    publishedVersion: optional(int('The graph version the pointer names.', { minimum: 0 })),
    reported: optional(
      int('Nodes whose report names the published version (or a newer one).', { minimum: 0 }),
    ),
    pending: optional(
      int(
        'Nodes whose report still names an older version without an error: they report within the window.',
        {
          minimum: 0,
        },
      ),
    ),
    reportWithinSeconds: optional(
      int('The fleet’s report window: a node reports a new version within this many seconds.', {
        minimum: 0,
      }),
    ),
  },
  'What the data-plane nodes report.',
);

export const runtimeStatus = object(
  { ...statusProperties, nodes: optional(nodeRollup) },
  'Observed state, written by the operator from the nodes’ reports.',
);

export const runtimeColumns: PrinterColumn[] = [
  acceptedColumn,
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Nodes', type: 'integer', jsonPath: '.status.nodes.running' },
  { name: 'Errors', type: 'integer', jsonPath: '.status.nodes.withError' },
  ageColumn,
];
