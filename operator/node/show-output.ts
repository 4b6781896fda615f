// SHOW <kinds> as a plain table: the names, a column or two that say what each object is, and where it
// is declared (a manifest file, or `statement`). Columns are padded to line up; rows come by name.
// Every name is a display name (decision 0025): `Orders_In` for an object a statement made, the resource
// name `orders-in` for one from YAML, and a reference by its target's display name.
import { DisplayNames, displayName } from '../api/display-names.js';
import type { GraphKind, GraphObject, SpecByKind } from '../api/index.js';
import type { ShowTarget } from '../language/ast.js';

/** An object with the manifest file that declares it (none for statement objects). */
export interface ShownObject {
  object: GraphObject;
  file?: string | undefined;
}

/** A reference's display name, as seen from the object holding it. */
type Ref = (kind: GraphKind, name: string) => string;

type Column<K extends GraphKind> = readonly [
  header: string,
  value: (spec: SpecByKind[K], ref: Ref) => string,
];

const relays = (list: readonly string[], ref: Ref): string =>
  list.map((relay) => ref('Relay', relay)).join(', ');
const routesTo = (spec: { routes: readonly { to: string }[] }, ref: Ref): string =>
  relays(
    spec.routes.map((r) => r.to),
    ref,
  );

const COLUMNS: { [K in GraphKind]: readonly Column<K>[] } = {
  Schema: [['FIELDS', (spec) => String(spec.fields.length)]],
  WireSchema: [
    ['FORMAT', (spec) => spec.format],
    ['FIELDS', (spec) => String(spec.fields.length)],
  ],
  Resource: [],
  Codec: [
    ['FROM', codecSource],
    ['SCHEMA', (spec, ref) => ref('Schema', spec.schema)],
  ],
  Relay: [['SCHEMA', (spec, ref) => ref('Schema', spec.schema)]],
  Vhost: [
    ['HOSTS', (spec) => spec.hostnames.join(', ')],
    ['TLS', (spec) => (spec.tls === undefined ? 'no' : 'yes')],
  ],
  Endpoint: [
    ['VHOST', (spec, ref) => ref('Vhost', spec.vhost)],
    ['PATH', (spec) => spec.path],
  ],
  SyslogClient: [
    ['PROTOCOL', (spec) => spec.config.protocol],
    ['ADDR', (spec) => spec.config.addr],
  ],
  HttpIngestor: [
    ['TYPE', () => 'HTTP'],
    ['FROM', (spec, ref) => ref('Endpoint', spec.endpoint)],
    ['CODEC', (spec, ref) => ref('Codec', spec.codec)],
    ['TO', routesTo],
  ],
  SyslogIngestor: [
    ['TYPE', () => 'SYSLOG'],
    ['FROM', (spec, ref) => ref('SyslogClient', spec.client)],
    ['CODEC', (spec, ref) => ref('Codec', spec.codec)],
    ['TO', routesTo],
  ],
  Junction: [
    ['FROM', (spec, ref) => relays(spec.from, ref)],
    ['TO', routesTo],
  ],
  Correlator: [
    ['LEFT', (spec, ref) => ref('Relay', spec.left)],
    ['RIGHT', (spec, ref) => ref('Relay', spec.right)],
    ['TO', routesTo],
  ],
  Emitter: [
    ['FROM', (spec, ref) => ref('Relay', spec.from)],
    ['TO', (spec, ref) => ref('SyslogClient', spec.to.client)],
    ['CODEC', (spec, ref) => ref('Codec', spec.codec)],
  ],
};

function codecSource(spec: SpecByKind['Codec'], ref: Ref): string {
  if (spec.wireSchema !== undefined) return `WIRE JSON SCHEMA ${ref('WireSchema', spec.wireSchema)}`;
  if (spec.protobuf !== undefined) {
    const { resource, version } = spec.protobuf.using;
    return `PROTOBUF ${ref('Resource', resource)} VERSION ${version}`;
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
  const names = new DisplayNames(objects.map(({ object }) => object));
  const rows = shown.map(({ object, file }) => [
    displayName(object),
    ...columnsOf(object.kind).map(([, value]) =>
      value(object.spec, (kind, name) => names.of(kind, name, object)),
    ),
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
