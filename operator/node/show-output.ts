// SHOW <kinds> as a plain table: the names, a column or two that say what each object is, and where it
// is declared (a manifest file, or `statement`). Columns are padded to line up; rows come by name.
import type { GraphKind, GraphObject, SpecByKind } from '../api/index.js';
import type { ShowTarget } from '../language/ast.js';
import { identifier } from '../language/print-literals.js';

/** An object with the manifest file that declares it (none for statement objects). */
export interface ShownObject {
  object: GraphObject;
  file?: string | undefined;
}

type Column<K extends GraphKind> = readonly [header: string, value: (spec: SpecByKind[K]) => string];

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

/** The table SHOW prints. `latestVersion` fills the LATEST column of SHOW RESOURCES. */
export function showTable(
  what: ShowTarget,
  objects: readonly ShownObject[],
  latestVersion: (resource: string) => number | undefined,
): string {
  const kinds: GraphKind[] = what === 'Ingestor' ? ['HttpIngestor', 'SyslogIngestor'] : [what];
  const shown = objects
    .filter((entry) => kinds.includes(entry.object.kind))
    .sort((a, b) => a.object.metadata.name.localeCompare(b.object.metadata.name));
  const columns = columnsOf(kinds[0] ?? 'Schema');
  const extra = what === 'Resource' ? ['LATEST'] : [];
  const header = ['NAME', ...columns.map(([title]) => title), ...extra, 'DECLARED IN'];
  const rows = shown.map(({ object, file }) => [
    identifier(object.metadata.name),
    ...columnsOf(object.kind).map(([, value]) => value(object.spec)),
    ...(what === 'Resource' ? [String(latestVersion(object.metadata.name) ?? '-')] : []),
    file ?? 'statement',
  ]);
  return formatTable(header, rows);
}

function columnsOf(kind: GraphKind): readonly Column<GraphKind>[] {
  return COLUMNS[kind] as unknown as readonly Column<GraphKind>[];
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
