// SHOW <kinds> as a plain table: the names, a column or two that say what each object is, and where it
// is declared (a manifest file, or `statement`); `-o wide` adds the columns of show-wide-columns.ts.
// Columns are padded to line up; rows come by name. The rows are data first (ShowItem, what -o json
// prints), so the node and a cluster, table and JSON, all read the same objects.
// Every name is a display name (decision 0025): `Orders_In` for an object a statement made, the resource
// name `orders-in` for one from YAML, and a reference by its target's display name.
import { DisplayNames, displayName } from '../api/display-names.js';
import type { GraphKind, GraphObject, SpecByKind } from '../api/index.js';
import { kindsOf, type ShowTarget } from '../language/ast.js';
import { DEFAULT_SECURITY_PROTOCOL } from '../api/kinds/kafka-client.js';
import { WIDE_COLUMNS, type Column, type Ref } from './show-wide-columns.js';

/** An object with the manifest file that declares it (none for statement objects). */
export interface ShownObject {
  object: GraphObject;
  file?: string | undefined;
}

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
    ['TYPE', () => 'SYSLOG'],
    ['PROTOCOL', (spec) => spec.config.protocol],
    ['ADDR', (spec) => spec.config.addr],
  ],
  KafkaClient: [
    ['TYPE', () => 'KAFKA'],
    ['PROTOCOL', (spec) => spec.config.securityProtocol ?? DEFAULT_SECURITY_PROTOCOL],
    ['ADDR', (spec) => spec.config.bootstrapServers.join(',')],
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
  TopicIngestor: [
    ['TYPE', () => 'TOPIC'],
    ['FROM', (spec, ref) => `${ref('KafkaClient', spec.client)} topic ${spec.topic}`],
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
    ['TO', (spec, ref) => emitterTarget(spec, ref)],
    ['CODEC', (spec, ref) => ref('Codec', spec.codec)],
  ],
};

/** `collector` (syslog), `kafka_main topic orders` (Kafka). */
function emitterTarget(spec: SpecByKind['Emitter'], ref: Ref): string {
  if (spec.to.type === 'SYSLOG') return ref('SyslogClient', spec.to.client);
  return `${ref('KafkaClient', spec.to.client)} topic ${spec.to.topic ?? '?'}`;
}

function codecSource(spec: SpecByKind['Codec'], ref: Ref): string {
  if (spec.wireSchema !== undefined) return `WIRE JSON SCHEMA ${ref('WireSchema', spec.wireSchema)}`;
  if (spec.protobuf !== undefined) {
    const { resource, version } = spec.protobuf.using;
    return `PROTOBUF ${ref('Resource', resource)} VERSION ${version}`;
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

/** The kinds SHOW <what> lists: SHOW INGESTORS lists every ingestor kind, SHOW CLIENTS both client kinds. */
export function shownKinds(what: ShowTarget): GraphKind[] {
  return kindsOf(what);
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

/**
 * The table SHOW prints; `wide` adds the columns of show-wide-columns.ts. `names`: the domain's objects,
 * for references to other kinds (without them a reference shows as its referrer wrote it, in lower case).
 */
export function showTable(
  what: ShowTarget,
  items: readonly ShowItem[],
  options: { wide?: boolean; names?: DisplayNames } = {},
): string {
  const wide = options.wide === true;
  const names = options.names ?? new DisplayNames(items.map(({ resource }) => resource));
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
    displayName(resource),
    ...columns(resource.kind).map(([, value]) =>
      value(resource.spec, (kind, name) => names.of(kind, name, resource)),
    ),
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
