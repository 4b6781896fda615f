// The document `-o json|yaml` prints for statements (`-c`, `-f`, stdin), on a node and on a cluster: one
// entry per SHOW, SHOW CREATE and DESCRIBE that ran, in order, with what it found as data
// (docs/cli.md#statements-as-json). The same data renders `-o wide`'s tables.
import { identifier } from '../language/print-literals.js';
import { printObject } from '../language/print.js';
import type { StatementData } from '../node/protocol.js';
import { showTable } from '../node/show-output.js';
import { outputDocument, sortedKeys } from './output-format.js';

/** Where a statement stands: its tag (`SHOW RELAYS`), its script and its line and column there. */
export interface StatementPlace {
  statement: string;
  source: string;
  line: number;
  column: number;
}

/** One entry of `results`: the place, then the fields of its type. */
export function resultEntry(place: StatementPlace, data: StatementData): Record<string, unknown> {
  const head = {
    statement: place.statement,
    source: place.source,
    line: place.line,
    column: place.column,
    type: data.type,
  };
  switch (data.type) {
    case 'show':
      return {
        ...head,
        items: data.items.map((item) => ({
          name: identifier(item.resource.metadata.name),
          kind: item.resource.kind,
          declaredIn: item.declaredIn,
          ...(item.latestVersion === undefined ? {} : { latestVersion: item.latestVersion }),
          resource: resourceOf(item.resource),
        })),
      };
    case 'show-create':
      return { ...head, resource: resourceOf(data.resource), create: printObject(data.resource) };
    case 'describe':
      return { ...head, description: sortedKeys(data.description) };
    case 'describe-status':
      return { ...head, resource: resourceOf(data.resource), status: sortedKeys(data.status) };
  }
}

/** A graph object as a document holds it: its keys sorted, without status. */
function resourceOf(resource: { status?: unknown }): unknown {
  const { status: _status, ...rest } = resource;
  return sortedKeys(rest);
}

/** `{"apiVersion", "kind": "StatementResults", "domain", "results": [...]}`. */
export function statementDocument(domain: string, results: readonly unknown[]): Record<string, unknown> {
  return outputDocument('StatementResults', { domain, results });
}

/** What `-o wide` prints for a statement's data: SHOW's wide table; undefined to print the text as is. */
export function wideText(data: StatementData | undefined): string | undefined {
  return data?.type === 'show' ? showTable(data.what, data.items, { wide: true }) : undefined;
}

/** This module's printers, handed to print-reply.ts by those that loaded it. */
export interface StatementDocuments {
  resultEntry: typeof resultEntry;
  wideText: typeof wideText;
}
