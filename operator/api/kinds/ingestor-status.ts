// Status of ingestors and emitters: conditions plus the roll-up of the nodes running them.
import { object, nodeRollupProperties, statusProperties } from '../dsl.js';
import { ageColumn, acceptedColumn, type PrinterColumn } from '../kind.js';

export const runtimeStatus = object(
  { ...statusProperties, ...nodeRollupProperties },
  'Observed state, written by the operator from the nodes’ reports.',
);

export const runtimeColumns: PrinterColumn[] = [
  acceptedColumn,
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Nodes', type: 'integer', jsonPath: '.status.nodes.running' },
  { name: 'Errors', type: 'integer', jsonPath: '.status.nodes.withError' },
  ageColumn,
];
