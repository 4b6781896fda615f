// SHOW <kinds> as a plain table: the names, a column or two that say what each object is, and where it
// is declared (a manifest file, or `statement`); `-o wide` adds the columns of show-wide-columns.ts.
// Columns are padded to line up; rows come by name. The rows are data first (ShowItem, what -o json
// prints), so the node and a cluster, table and JSON, all read the same objects.
import type { GraphKind, GraphObject, SpecByKind } from '../api/index.js';
import type { ShowTarget } from '../language/ast.js';
import { identifier } from '../language/print-literals.js';
import { WIDE_COLUMNS, type Column } from './show-wide-columns.js';

/** An object with the manifest file that declares it (none for statement objects). */
export interface ShownObject {
  object: GraphObject;
  file?: string | undefined;
}

const names = (list: readonly string[]): string => list.map(identifier).join(', ');
const routesTo = (spec: { routes: readonly { to: string }[] }): string => names(spec.routes.map((r) => r.to));

const COLUMNS: { [K in GraphKind]: readonly Column<K>[] } = {
  Schema: [['FIELDS', (spec) => String(spec.fields.length)]],
  WireSchema: [
    ['FORMAT', (spec) => spec.format],
    ['FIELDS', (spec) => String(spec.fields.length)],
  ],
  Resource: [],
  Codec: [
    ['FROM', codecSource],
    ['SCHEMA', (spec) => identifier(spec.schema)],
  ],
  Relay: [['SCHEMA', (spec) => identifier(spec.schema)]],
  Vhost: [
    ['HOSTS', (spec) => spec.hostnames.join(', ')],
    ['TLS', (spec) => (spec.tls === undefined ? 'no' : 'yes')],
  ],
  Endpoint: [
    ['VHOST', (spec) => identifier(spec.vhost)],
    ['PATH', (spec) => spec.path],
  ],
  SyslogClient: [
    ['PROTOCOL', (spec) => spec.config.protocol],
    ['ADDR', (spec) => spec.config.addr],
  ],
  HttpIngestor: [
    ['TYPE', () => 'HTTP'],
    ['FROM', (spec) => identifier(spec.endpoint)],
    ['CODEC', (spec) => identifier(spec.codec)],
    ['TO', routesTo],
  ],
  SyslogIngestor: [
    ['TYPE', () => 'SYSLOG'],
    ['FROM', (spec) => identifier(spec.client)],
    ['CODEC', (spec) => identifier(spec.codec)],
    ['TO', routesTo],
  ],
  Junction: [
    ['FROM', (spec) => names(spec.from)],
    ['TO', routesTo],
  ],
  Correlator: [
    ['LEFT', (spec) => identifier(spec.left)],
    ['RIGHT', (spec) => identifier(spec.right)],
    ['TO', routesTo],
  ],
  Emitter: [
    ['FROM', (spec) => identifier(spec.from)],
    ['TO', (spec) => identifier(spec.to.client)],
    ['CODEC', (spec) => identifier(spec.codec)],
  ],
};

function codecSource(spec: SpecByKind['Codec']): string {
  if (spec.wireSchema !== undefined) return `WIRE JSON SCHEMA ${identifier(spec.wireSchema)}`;
  if (spec.protobuf !== undefined) {
    const { resource, version } = spec.protobuf.using;
    return `PROTOBUF ${identifier(resource)} VERSION ${version}`;
  }
  return spec.from;
}

/** One row of SHOW: the object, where it is declared, and for a Resource its highest version. */
export interface ShowItem {
  resource: GraphObject;
  /** A manifest file, `statement`, `this script`, or a cluster object's field managers. */
  declaredIn: string;
  /** SHOW RESOURCES: the highest uploaded version (absent while there is none). */
  latestVersion?: number;
}

/** The kinds SHOW <what> lists: SHOW INGESTORS lists both ingestor kinds. */
export function shownKinds(what: ShowTarget): GraphKind[] {
  return what === 'Ingestor' ? ['HttpIngestor', 'SyslogIngestor'] : [what];
}

/** The rows of SHOW <what>, by name. `latestVersion` fills the LATEST column of SHOW RESOURCES. */
export function showItems(
  what: ShowTarget,
  objects: readonly ShownObject[],
  latestVersion: (resource: string) => number | undefined,
): ShowItem[] {
  const kinds = shownKinds(what);
  return objects
    .filter((entry) => kinds.includes(entry.object.kind))
    .sort((a, b) => a.object.metadata.name.localeCompare(b.object.metadata.name))
    .map(({ object, file }) => {
      const latest = what === 'Resource' ? latestVersion(object.metadata.name) : undefined;
      return {
        resource: object,
        declaredIn: file ?? 'statement',
        ...(latest === undefined ? {} : { latestVersion: latest }),
      };
    });
}

/** The table SHOW prints; `wide` adds the columns of show-wide-columns.ts. */
export function showTable(
  what: ShowTarget,
  items: readonly ShowItem[],
  options: { wide?: boolean } = {},
): string {
  const wide = options.wide === true;
  const columns = (kind: GraphKind) => [
    ...columnsOf(COLUMNS, kind),
    ...(wide ? columnsOf(WIDE_COLUMNS, kind) : []),
  ];
  const extra = what === 'Resource' ? ['LATEST'] : [];
  const header = [
    'NAME',
    ...columns(shownKinds(what)[0] ?? 'Schema').map(([title]) => title),
    ...extra,
    'DECLARED IN',
  ];
  const rows = items.map(({ resource, declaredIn, latestVersion }) => [
    identifier(resource.metadata.name),
    ...columns(resource.kind).map(([, value]) => value(resource.spec)),
    ...(what === 'Resource' ? [String(latestVersion ?? '-')] : []),
    declaredIn,
  ]);
  return formatTable(header, rows);
}

function columnsOf(
  table: { [K in GraphKind]: readonly Column<K>[] },
  kind: GraphKind,
): readonly Column<GraphKind>[] {
  // `?? []`: a kind this build does not know (a newer node's) shows its name and where it is declared.
  return (table[kind] as readonly Column<GraphKind>[] | undefined) ?? [];
}

/** Columns separated by two spaces and padded to the widest cell; a count of rows at the end. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('  ');
  const count = `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`;
  return [line(header), ...rows.map(line), count].join('\n');
}
