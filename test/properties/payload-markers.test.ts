// Nothing derived from a payload reaches a log line or a /metrics label (docs/errors.md, "Message errors").
// Every string and every key of a generated payload starts with a marker, every number is a marker digit
// sequence, and the payloads go, in every format the node reads, through every construct that makes jq or
// a codec fail: iteration, indexing, arithmetic on mixed types, error/1 with the value, tonumber, fromjson,
// @base64d, path expressions, date parsing, recursion; a strict wire schema's unknown key, wrong type and
// out-of-range integer; YAML and TOML duplicate keys, TOML integers beyond 64 bits, XML entities in marker
// elements, CBOR duplicate keys, bad UTF-8 everywhere; protobuf unknown fields and wrong wire types; every
// SYSLOG header field; and ON EMITTING programs whose output the format cannot write. They run through the
// data plane's real topology (codecs, routes, relays, syslog emitters over UDP to 127.0.0.1) with an
// in-memory log sink; every log line, as JSON and as `--log-format text` writes it, and every /metrics
// sample is then searched for the marker, for its digits and for its character codes (jq prints a string
// as a list of codes in some path errors).
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import fc from 'fast-check';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { stringify as tomlStringify } from 'smol-toml';
import { stringify as yamlStringify } from 'yaml';
import { cborBytes } from '../../dataplane/codecs/formats/cbor-writer.js';
import type { JsonValue } from '../../dataplane/codecs/json-value.js';
import { ManualClock } from '../../dataplane/core/clock.js';
import { textLogLine } from '../../dataplane/core/text-log-line.js';
import { loadGraph } from '../../dataplane/graph/load.js';
import type { Graph } from '../../dataplane/graph/types.js';
import { buildTopology, type Topology } from '../../dataplane/runtime/topology.js';
import { formatDiagnostic } from '../../operator/diagnostics/diagnostic.js';
import { compileDomain, prepareCompileAll } from '../../operator/compiler/index.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';
import { resourceFiles } from '../fixtures/compile-cases.js';
import type { LogLine } from '../fixtures/graph-from-statements.js';

/** Starts every string and key of a payload. Its digits are the number marker too. */
const MARK = 'Mk73519';
const DIGITS = '73519';
/** How the marker looks when jq prints a string as its code points (`[77,107,55,…]`). */
const CODES = [...MARK].map((char) => char.charCodeAt(0)).join(',');
const HEX = Buffer.from(MARK).toString('hex');
const NEEDLES = [DIGITS, CODES, HEX, MARK.toLowerCase(), MARK.toUpperCase()];

const RUNS = Number(process.env.MARKER_RUNS ?? 3);

// ---- generated payload values: every string, key and number carries the marker ----

/** Characters that break naive elision: quotes, brackets, escapes, separators, non-ASCII. */
const AWKWARD = [...`ab_ '"()[]{}\\:,.=<>&#/-\u00e9\u4e2d`];
const markString = fc.string({ unit: fc.constantFrom(...AWKWARD), maxLength: 6 }).map((tail) => MARK + tail);
/** Keys that are XML names and TOML bare keys too, so every format can carry them. */
const markKey = fc.stringMatching(/^[a-z0-9_]{0,4}$/).map((tail) => MARK + tail);
const markNumber = fc.constantFrom(73519, -73519, 73519.25, 735190000, 7351973519, 0.73519);
const leaf = fc.oneof(markString, markNumber, fc.boolean());

type Tree = JsonValue;
const { tree } = fc.letrec<{ tree: Tree; node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
    fc.dictionary(markKey, tie('node'), { minKeys: 1, maxKeys: 3 }),
  ),
  // always at least one string leaf: constructs over strings (halt_error, a string as a time) must fail
  // in every run, or a run of trees of numbers and booleans leaves them silent (a CI flake)
  tree: fc
    .tuple(fc.dictionary(markKey, tie('node'), { minKeys: 1, maxKeys: 4 }), markKey, markString)
    .map(([entries, key, string]) => ({ ...entries, [key]: string })),
}));

// ---- the payloads of every format, well-formed and broken ----

const text = (value: string): Uint8Array => Buffer.from(value, 'utf8');
/** Bytes with an invalid UTF-8 byte right after the first marker. */
function badUtf8(bytes: Uint8Array): Uint8Array {
  const buffer = Buffer.from(bytes);
  const at = buffer.indexOf(MARK);
  if (at === -1) return Buffer.concat([buffer, Buffer.from([0xff])]);
  return Buffer.concat([
    buffer.subarray(0, at + MARK.length),
    Buffer.from([0xff, 0xfe]),
    buffer.subarray(at),
  ]);
}
const truncated = (value: string): Uint8Array =>
  text(value.slice(0, Math.max(1, Math.floor(value.length * 0.7))));
const nested = (open: string, inner: string, close: string, depth = 300): string =>
  open.repeat(depth) + inner + close.repeat(depth);

/** TOML has no null: nulls become false (the generator makes none, but arrays of trees may). */
function tomlSafe(value: Tree): Tree {
  if (value === null) return false;
  if (Array.isArray(value)) return value.map(tomlSafe);
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tomlSafe(v)]));
  return value;
}

function xmlEscape(value: string): string {
  return value.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** An XML document of the tree: keys are element names, each element has a marker attribute too. */
function xmlOf(value: Tree, name = `${MARK}root`): string {
  const attribute = ` ${MARK}at="${xmlEscape(`${MARK}'"<&`)}"`;
  if (Array.isArray(value)) return value.map((item) => xmlOf(item, name)).join('');
  if (value !== null && typeof value === 'object') {
    const children = Object.entries(value)
      .map(([key, item]) => xmlOf(item, key))
      .join('');
    return `<${name}${attribute}>${children}</${name}>`;
  }
  return `<${name}${attribute}>${xmlEscape(String(value))}</${name}>`;
}

/** A CBOR map with the same text key twice. */
function cborDuplicateKey(key: string): Uint8Array {
  const keyBytes = cborBytes(key);
  return Buffer.concat([Buffer.from([0xa2]), keyBytes, Buffer.from([0x01]), keyBytes, Buffer.from([0x02])]);
}

/** A CBOR text string whose bytes are the marker followed by invalid UTF-8. */
function cborBadText(): Uint8Array {
  const body = Buffer.concat([Buffer.from(MARK), Buffer.from([0xff, 0xfe])]);
  return Buffer.concat([Buffer.from([0xa1, 0x61, 0x6b, 0x60 + body.length]), body]);
}

type Format = 'JSON' | 'YAML' | 'TOML' | 'XML' | 'CBOR';
const FORMATS: Format[] = ['JSON', 'YAML', 'TOML', 'XML', 'CBOR'];

/** The tree written in `format` (what every jq construct runs on). */
function wellFormed(format: Format, value: Tree): Uint8Array {
  switch (format) {
    case 'JSON':
      return text(JSON.stringify(value));
    case 'YAML':
      return text(yamlStringify(value));
    case 'TOML':
      return text(tomlStringify(tomlSafe(value)));
    case 'XML':
      return text(xmlOf(value));
    case 'CBOR':
      return cborBytes(value);
  }
}

/** Payloads of `format` that its reader refuses, each built around the tree or a marker key. */
function broken(format: Format, value: Tree, key: string, string: string): Uint8Array[] {
  const good = wellFormed(format, value);
  const common = [badUtf8(good)];
  switch (format) {
    case 'JSON': {
      const json = JSON.stringify(value);
      return [
        ...common,
        truncated(json),
        text(`{${JSON.stringify(key)}: ${JSON.stringify(string)} ${JSON.stringify(string)}}`),
        text(nested('[', JSON.stringify(string), ']')),
        text(JSON.stringify(string)),
        text(`{"${key}": ${DIGITS}${DIGITS}e${DIGITS}}`),
      ];
    }
    case 'YAML':
      return [
        ...common,
        text(`${key}: 1\n${key}: 2\n`),
        text(`${key}: *${key}\n`),
        text(`${key}: [${JSON.stringify(string)}\n`),
        text(`? [${key}]\n: 1\n`),
        text(`${key}: !${key} ${key}\n`),
        text(`${key}:\n\t- ${key}\n`),
        text(`${key}: &${key} [*${key}]\n`),
        text(nested('[', key, ']')),
        text(`${key}: "${MARK}\\q"\n`),
        text(`${key}: ${DIGITS}\n---\n- ${key}\n...\n${key}`),
      ];
    case 'TOML':
      return [
        ...common,
        truncated(new TextDecoder().decode(good)),
        text(`${key} = 1\n${key} = 2\n`),
        text(`[${key}]\na = 1\n[${key}]\nb = 2\n`),
        text(`[${key}.${key}x]\n${key}y = 9${DIGITS}${DIGITS}${DIGITS}${DIGITS}\n`),
        text(`${key} = 2026-02-31\n`),
        text(`${key} = "${MARK}\n`),
        text(`${key} = ${key}\n`),
        text(`${key} = "${MARK}\\q"\n`),
        text(`"${string.replace(/["\\]/g, '')}" = [1, "${MARK}"\n`),
        text(`${key} = ${nested('[', '1', ']')}\n`),
      ];
    case 'XML':
      return [
        ...common,
        text(`<${key}>&${key};</${key}>`),
        text(`<${key}><${key}x>&#0;</${key}x></${key}>`),
        text(`<${key}><${key}a></${key}b></${key}>`),
        text(`<${key} ${key}a="<${MARK}"/>`),
        text(`<${key}>${MARK}]]>${MARK}</${key}>`),
        text(`<!DOCTYPE ${key} [<!ENTITY ${key} "${MARK}">]><${key}/>`),
        text(`<${key}/><${key}/>`),
        text(`<${key} ${key}a="1" ${key}a="2"/>`),
        text(`${MARK}<${key}/>`),
        text(`<${key}>\u0001${MARK}</${key}>`),
        text(nested(`<${key}>`, MARK, `</${key}>`)),
        text(`<${key}><${MARK}&/></${key}>`),
      ];
    case 'CBOR': {
      return [
        ...common,
        good.subarray(0, Math.max(1, Math.floor(good.length * 0.7))),
        Buffer.concat([good, Buffer.from(MARK)]),
        cborDuplicateKey(key),
        cborBadText(),
        Buffer.from([0xa1, 0x7b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...Buffer.from(MARK)]),
        Buffer.concat([Buffer.alloc(300, 0x81), cborBytes(string)]),
        Buffer.concat([Buffer.from([0xa1]), cborBytes(key), Buffer.from([0xf8, 0x10])]),
      ];
    }
  }
}

// ---- jq: every construct that raises, over the whole input and over every value inside it ----

const INGESTION_PROGRAMS: Record<string, string> = {
  iterate: '[.. | .[]]',
  index_value: '[.. | .[tostring]]',
  index_key: '[.. | objects | keys[0] as $k | [] | .[$k]]',
  getpath: '[paths] | .[-1] as $p | 1 | getpath($p)',
  setpath: '[.. | setpath([.]; 1)]',
  add: '[.. | . + 1]',
  subtract: '[.. | . - "x"]',
  multiply: '[.. | . * {}]',
  divide_zero: '[.. | numbers | . / 0]',
  modulo_zero: '[.. | numbers | . % 0]',
  negate: '[.. | -.]',
  error_value: 'error(.)',
  error_leaves: '[.. | scalars | error]',
  error_text: 'error(tojson)',
  error_keys: 'error(keys | join(","))',
  error_object: 'error({at: [paths]})',
  tonumber: '[.. | tonumber]',
  tonumber_strings: '[.. | strings | tonumber]',
  fromjson: '[.. | strings | fromjson]',
  base64d: '[.. | tostring | @base64d | explode]',
  path_tostring: 'path(.. | tostring)',
  path_iterate: 'to_entries | path(.[0].key | ascii_downcase)',
  paths_keys: '[paths(type == "number")] | .[0] | path(.[] | tostring)',
  object_key: '[.. | {(.): 1}]',
  keys: '[.. | keys]',
  has: '[.. | has(.)]',
  regex_subject: '[.. | test("a")]',
  regex_pattern: '[.. | strings as $s | "x" | test($s + "(")]',
  strptime: '[.. | strings | strptime("%Y")]',
  todate: '[.. | todate]',
  csv: '[.. | @csv]',
  sh: '[.. | @sh]',
  contains: '[.. | contains(1)]',
  join: '[.. | arrays | join(",")]',
  limit: '[.. | numbers | limit(-.; 1)]',
  implode: '[.. | numbers | [. * 1000] | implode]',
  ltrimstr_add: '[.. | ltrimstr("x") + {}]',
  splits: '[.. | splits(1)]',
  utf8bytelength: '[.. | utf8bytelength]',
  sort: '[.. | sort]',
  destructure: '. as [$a] | $a',
  recursion: 'def deeper: [deeper]; deeper',
  halt_error: '.. | strings | halt_error',
  record_type: '{s: .}',
  record_range: '{s: "x", u: ([.. | numbers, (strings | tonumber?)] | first // 73519)}',
  record_array: '[.]',
  record_time: '{s: "x", t: (.. | strings)}',
  identity: '.',
};

const EMITTING_PROGRAMS: Record<string, string> = {
  null_at_key: '{(.s): null, x: [{(.s): null}]}',
  bad_name: '{r: {(.s + " \\u0001"): 1, (.s): {(.s + "<"): [null]}}}',
  bad_attribute: '{r: {("@" + .s + " x"): 1, ("@" + .s): {(.s): 1}}}',
  tonumber: '.s | tonumber',
  error_value: 'error(.s)',
  error_object: 'error({(.s): .n})',
  two_values: '.s, .n',
  scalar: '[.n, .s]',
  add: '.s + .n',
};

const PROTO = `syntax = "proto3";
package mk.v1;
message Rec {
  string s = 1;
  int64 n = 2;
  uint32 u = 3;
  optional string t = 4;
  repeated string tags = 5;
  map<string, string> attrs = 6;
  Rec child = 7;
}
`;

// ---- the graph: one ingestor per format and construct, emitters for ON EMITTING ----

function statements(udpPort: number): string {
  const parts = [
    `CREATE SCHEMA rec (s STRING, n I64 OPTIONAL, u U8 OPTIONAL, t DATETIME OPTIONAL);`,
    `CREATE SCHEMA lines (facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL,
       app_name STRING OPTIONAL, proc_id STRING OPTIONAL, msg_id STRING OPTIONAL,
       structured_data STRING OPTIONAL, message STRING);`,
    `CREATE WIRE JSON SCHEMA rec_wire MODE STRICT (s string, n integer, u integer, t string);`,
    `CREATE CODEC rec_json FROM WIRE JSON SCHEMA rec_wire TO SCHEMA rec;`,
    `CREATE CODEC syslog FROM SYSLOG TO SCHEMA lines;`,
    `CREATE RELAY sink SCHEMA rec UNBRANCHED;`,
    `CREATE RELAY wire_out SCHEMA rec UNBRANCHED;`,
    `CREATE RELAY line_sink SCHEMA lines UNBRANCHED;`,
    `CREATE VHOST local localhost;`,
    `CREATE RESOURCE protos;`,
    `CREATE CLIENT sink_udp TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '127.0.0.1:${udpPort}' };`,
  ];
  const ingestor = (name: string, codec: string, relay = 'sink'): void => {
    parts.push(
      `CREATE ENDPOINT ${name}_ep ON local PATH '/${name}' TYPE HTTP;`,
      `CREATE HTTP ENDPOINT INGESTOR ${name} FROM ${name}_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB
         DECODE USING ${codec} TO ${relay} INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
         ON GENERAL ERROR LOG;`,
    );
  };
  ingestor('wire_in', 'rec_json', 'wire_out');
  ingestor('syslog_in', 'syslog', 'line_sink');
  for (const format of FORMATS) {
    for (const [construct, program] of Object.entries(INGESTION_PROGRAMS)) {
      const name = `${format.toLowerCase()}_${construct}`;
      parts.push(
        `CREATE CODEC ${name}_c FROM ${format} TO SCHEMA rec WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$${program}$jaq$;`,
      );
      ingestor(name, `${name}_c`);
    }
  }
  const protobuf = (name: string, ingestion: string, emitting?: string): void => {
    parts.push(
      `CREATE CODEC ${name} FROM PROTOBUF USING RESOURCE protos VERSION 1
         CONFIG { 'file' = 'rec.proto', 'include' = '.' } MESSAGE 'mk.v1.Rec' TO SCHEMA rec
         WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$${ingestion}$jaq$
         ${emitting === undefined ? '' : `ON EMITTING $jaq$${emitting}$jaq$`} ENCODE t AS RFC3339;`,
    );
  };
  for (const construct of ['iterate', 'add', 'error_value', 'tonumber_strings', 'index_key', 'identity']) {
    const name = `pb_${construct}`;
    protobuf(`${name}_c`, INGESTION_PROGRAMS[construct] as string);
    ingestor(name, `${name}_c`);
  }
  const emitter = (name: string, codec: string): void => {
    parts.push(
      `CREATE EMITTER ${name} FROM wire_out TO SYSLOG sink_udp MODE NO_ACK RETRY POLICY BACKOFF 200ms MAX 1s
         ENCODE USING ${codec} FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
    );
  };
  for (const format of FORMATS) {
    for (const [construct, program] of Object.entries(EMITTING_PROGRAMS)) {
      const name = `out_${format.toLowerCase()}_${construct}`;
      parts.push(
        `CREATE CODEC ${name}_c FROM ${format} TO SCHEMA rec WITH JAQ TRANSFORMATIONS
           ON INGESTION '.' ON EMITTING $jaq$${program}$jaq$;`,
      );
      emitter(name, `${name}_c`);
    }
  }
  for (const [construct, program] of Object.entries({
    ...EMITTING_PROGRAMS,
    unknown_key: '{(.s): 1, s: .s}',
    wrong_type: '{s: .n, n: .s}',
    repeated: '{s: "x", tags: [.s, {(.s): 1}]}',
    map_value: '{s: "x", attrs: {(.s): .n}}',
  })) {
    const name = `out_pb_${construct}`;
    protobuf(`${name}_c`, '.', program);
    emitter(name, `${name}_c`);
  }
  return parts.join('\n');
}

/** The kebab-case resource name of a statement name. */
const resource = (name: string): string => name.replace(/_/g, '-');

function compile(udpPort: number): Graph {
  const parsed = parseScript(statements(udpPort), 'graph.sql');
  const converted = statementsToObjects(parsed.statements, { reported: parsed.diagnostics });
  const compiled = compileDomain(converted.objects, {
    domain: 'markers',
    resources: resourceFiles({ protos: { 1: { 'rec.proto': PROTO } } }),
  });
  const problems = [...parsed.diagnostics, ...converted.diagnostics, ...compiled.diagnostics].filter(
    (diagnostic) => diagnostic.severity === 'error',
  );
  assert.deepEqual(problems.map(formatDiagnostic), [], 'the statements must compile cleanly');
  const loaded = loadGraph(JSON.parse(JSON.stringify(compiled.graph)));
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
  return loaded.graph;
}

// ---- protobuf and syslog payloads ----

function varint(value: number | bigint): number[] {
  let rest = BigInt(value);
  if (rest < 0n) rest += 1n << 64n;
  const bytes: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return bytes;
}
const tag = (field: number, wire: number): number[] => varint(field * 8 + wire);
const lengthDelimited = (field: number, bytes: Uint8Array | number[]): number[] => [
  ...tag(field, 2),
  ...varint(bytes.length),
  ...bytes,
];

/** A Rec on the wire with every string, map key and unknown field carrying the marker. */
function protobufPayloads(string: string, key: string): Uint8Array[] {
  const s = text(string);
  const entry = [...lengthDelimited(1, text(key)), ...lengthDelimited(2, s)];
  const child = [...lengthDelimited(1, s), ...tag(2, 0), ...varint(73519)];
  const good = [
    ...lengthDelimited(1, s),
    ...tag(2, 0),
    ...varint(-73519),
    ...tag(3, 0),
    ...varint(73519),
    ...lengthDelimited(5, s),
    ...lengthDelimited(5, text(key)),
    ...lengthDelimited(6, entry),
    ...lengthDelimited(7, child),
    ...lengthDelimited(73519, s),
    ...tag(735190, 0),
    ...varint(73519),
  ];
  return [
    Uint8Array.from(good),
    Uint8Array.from([...lengthDelimited(1, [...s, 0xff]), ...tag(2, 0), ...varint(1)]),
    Uint8Array.from([...tag(1, 0), ...varint(73519)]),
    Uint8Array.from([...tag(2, 2), ...varint(s.length), ...s]),
    Uint8Array.from(good.slice(0, Math.floor(good.length * 0.6))),
    Uint8Array.from([
      ...lengthDelimited(6, [...lengthDelimited(1, [...text(key), 0xc0]), ...lengthDelimited(2, s)]),
    ]),
    Uint8Array.from([...tag(73519, 3), ...lengthDelimited(1, s), ...tag(98, 4)]),
    Uint8Array.from([...tag(73519, 6), ...s]),
    Uint8Array.from([...tag(73519, 2), ...varint(73519), ...s]),
    Uint8Array.from([...tag(0, 2), ...varint(s.length), ...s]),
    Uint8Array.from([...tag(4, 2), ...varint(1000), ...s]),
  ];
}

/** RFC 5424 and RFC 3164 lines with the marker in every field, well-formed and not. */
function syslogPayloads(string: string, key: string): Uint8Array[] {
  const clean = string.replace(/[^\x21-\x7e]/g, '_');
  const sdValue = string.replace(/["\\\]]/g, '_');
  const sd = `[${key}@${DIGITS} ${key}="${sdValue}"]`;
  const lines = [
    `<13>1 2026-11-24T10:00:00Z ${clean} ${key} ${DIGITS} ${key} ${sd} ${string}`,
    `<13>1 ${MARK} ${clean} ${key} ${DIGITS} ${key} - ${string}`,
    `<13>1 2026-11-24T10:00:00Z ${clean.repeat(40)} ${key} - - - ${string}`,
    `<13>1 2026-11-24T10:00:00Z ${clean} ${key}`,
    `<13>1 2026-11-24T10:00:00Z ${clean} ${key} ${DIGITS} ${key} [${key} ${key}=${sdValue}] ${string}`,
    `<13>1 2026-11-24T10:00:00Z ${clean} ${key} ${DIGITS} ${key} [${key}@1 a="${MARK}]"] ${string}`,
    `<13>1 2026-11-24T10:00:00Z ${clean} ${key} ${DIGITS} ${key} [${key} a="${MARK}`,
    `<${DIGITS}>1 2026-11-24T10:00:00Z ${clean} - - - - ${string}`,
    `<13>Nov 24 10:00:00 ${clean} ${key}[${DIGITS}]: ${string}`,
    `<13>${MARK} ${string}`,
    `${MARK}${string}`,
  ];
  return [...lines.map(text), badUtf8(text(lines[0] as string)), text('\r\n\u0000')];
}

/** Wire JSON bodies: valid records (they go on to the emitters) and every way to break the wire schema. */
function wirePayloads(string: string, key: string, value: Tree): Uint8Array[] {
  const valid = { s: string, n: 73519, u: 7, t: null };
  const bodies: unknown[] = [
    valid,
    { ...valid, n: -7351973519 },
    { ...valid, [key]: string },
    { ...valid, [key]: value },
    { ...valid, s: 73519 },
    { ...valid, s: value },
    { ...valid, n: string },
    { ...valid, u: 73519 },
    { ...valid, u: -73519 },
    { ...valid, n: 73519.25 },
    { ...valid, t: string },
    { ...valid, t: 73519 },
    { s: string, n: 1, u: 1 },
    { ...valid, s: null },
    value,
    [value],
    string,
  ];
  const texts = bodies.map((body) => JSON.stringify(body));
  texts.push(`{"s": ${JSON.stringify(string)}, "n": 7351973519735197351973519, "u": 1, "t": null}`);
  texts.push(`{"s": ${JSON.stringify(string)}, "n": 1, "u": 73519e5, "t": null}`);
  texts.push(`{"s": ${JSON.stringify(string)}, ${JSON.stringify(key)}`);
  return [...texts.map(text), badUtf8(text(texts[0] as string))];
}

// ---- running it ----

/** Log lines (JSON and text) and /metrics text that contain the marker in any of its forms. */
function leaksIn(lines: readonly LogLine[], texts: readonly string[], metrics: string): string[] {
  const found: string[] = [];
  for (const shown of [...lines.map((line) => JSON.stringify(line)), ...texts]) {
    if (NEEDLES.some((needle) => shown.includes(needle))) found.push(shown);
  }
  for (const sample of metrics.split('\n')) {
    if (NEEDLES.some((needle) => sample.includes(needle))) found.push(`/metrics: ${sample}`);
  }
  return found;
}

describe('no payload text in logs or /metrics: a marker in every position of every format (property)', function () {
  this.timeout(600_000);
  let udp: Socket;
  let topology: Topology;
  let registry: Registry;
  const logs: LogLine[] = [];
  /** The same lines as `--log-format text` writes them. */
  const texts: string[] = [];

  before(async () => {
    await prepareCompileAll();
    udp = createSocket('udp4');
    udp.on('message', () => undefined);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const graph = compile(udp.address().port);
    registry = new Registry();
    // No time or pid: only what the node writes is searched (a timestamp may hold any digits).
    const stream = {
      write: (line: string): void => {
        logs.push(JSON.parse(line) as LogLine);
        texts.push(textLogLine(line));
      },
    };
    const logger = pino({ level: 'debug', timestamp: false, base: null }, stream);
    // every message error's line is read for the marker, so none is summed into a count
    const deps = { registry, logger, clock: new ManualClock(0), messageErrorLines: Number.POSITIVE_INFINITY };
    const built = buildTopology(graph, deps);
    assert.ok(built.ok, built.ok ? '' : built.errors.join('\n'));
    topology = built.topology;
  });

  after(() => {
    topology.stop();
    udp.close();
  });

  async function ingest(name: string, payloads: readonly Uint8Array[]): Promise<void> {
    const entry = topology.ingestors.get(resource(name));
    assert.ok(entry !== undefined, `no ingestor ${name}`);
    for (const payload of payloads) await entry.ingest(payload, {});
  }

  /** Emitters encode on their own schedule: waits until every record that reached one is handled. */
  async function emittersSettled(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const metrics = await registry.getMetricsAsJSON();
      const sum = (metric: string): number =>
        (metrics.find((entry) => entry.name === metric)?.values ?? [])
          .filter((value) => value.labels.kind === 'emitter')
          .reduce((total, value) => total + value.value, 0);
      const handled =
        sum('streamroute_message_errors_total') +
        sum('streamroute_records_out_total') +
        sum('streamroute_drops_total');
      if (handled >= sum('streamroute_records_in_total')) return;
      if (Date.now() > deadline) throw new Error('the emitters did not handle every record');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Components (ingestors, emitters) that have logged a message error so far. */
  const failed = new Set<string>();

  async function assertNoLeak(): Promise<void> {
    await emittersSettled();
    // Lines name components as their statements wrote them (decision 0025): back to resource names.
    for (const line of logs)
      if (line.msg.startsWith('message error')) failed.add(resource(String(line.name)));
    const leaks = leaksIn(logs, texts, await registry.metrics());
    const messageErrors = logs.filter((line) => line.msg.startsWith('message error')).length;
    assert.ok(messageErrors > 0, 'message errors were logged');
    assert.equal(texts.length, logs.length);
    logs.length = 0;
    texts.length = 0;
    assert.deepEqual(leaks.slice(0, 40), [], `${leaks.length} log lines or samples show the marker`);
  }

  it('jq constructs over JSON, YAML, TOML, XML and CBOR, and every reader’s refusals', async () => {
    await fc.assert(
      fc.asyncProperty(tree, markKey, markString, async (value, key, string) => {
        for (const format of FORMATS) {
          const lower = format.toLowerCase();
          const payload = wellFormed(format, value);
          for (const construct of Object.keys(INGESTION_PROGRAMS))
            await ingest(`${lower}_${construct}`, [payload]);
          await ingest(`${lower}_identity`, broken(format, value, key, string));
        }
        await assertNoLeak();
      }),
      { numRuns: RUNS },
    );
    // The constructs really fail: every one of them, in every format, gave a message error to search.
    const silent = FORMATS.flatMap((format) =>
      Object.keys(INGESTION_PROGRAMS).map((construct) => resource(`${format.toLowerCase()}_${construct}`)),
    ).filter((name) => !failed.has(name));
    assert.deepEqual(silent, [], 'ingestors that never failed');
  });

  it('the strict wire schema, and ON EMITTING programs of every format and of protobuf', async () => {
    await fc.assert(
      fc.asyncProperty(tree, markKey, markString, async (value, key, string) => {
        await ingest('wire_in', wirePayloads(string, key, value));
        await assertNoLeak();
      }),
      { numRuns: RUNS },
    );
    // JSON, YAML and CBOR write nulls, any key and any top-level value, TOML any key: those succeed there.
    const writable =
      /^out-(?:json|yaml|cbor)-(?:null-at-key|bad-name|bad-attribute|scalar)$|^out-toml-bad-attribute$/;
    const silent = [...topology.emitters.keys()].filter((name) => !failed.has(name) && !writable.test(name));
    assert.deepEqual(silent, [], 'emitters that never failed');
  });

  it('protobuf messages (unknown fields, wrong wire types, map keys) and SYSLOG lines', async () => {
    await fc.assert(
      fc.asyncProperty(markKey, markString, async (key, string) => {
        const payloads = protobufPayloads(string, key);
        for (const construct of [
          'iterate',
          'add',
          'error_value',
          'tonumber_strings',
          'index_key',
          'identity',
        ])
          await ingest(`pb_${construct}`, payloads);
        await ingest('syslog_in', syslogPayloads(string, key));
        await assertNoLeak();
      }),
      { numRuns: RUNS },
    );
  });
});
