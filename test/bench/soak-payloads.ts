// What the soak benchmark sends: one order per good body in each HTTP format, bodies that each cause
// exactly one message error, the worst-case bodies of test/fixtures/worst-case-bodies.ts, and syslog
// frames good and bad. Counting holds only if every bad body is one error: none decodes to zero records
// (`{"orders": []}` would) or to several.
import { BODY_FAMILIES, type BodyFamily } from '../fixtures/worst-case-bodies.js';
import type { HttpFormat } from './soak-graph.js';

const encoder = new TextEncoder();

/** One order, `n` numbering it (ids are unique over a run). */
export function goodBody(format: HttpFormat, n: number): Uint8Array {
  const id = `S-${n}`;
  const customer = `c${n % 50}`;
  const amount = n % 10_000;
  switch (format) {
    case 'wire':
      return encoder.encode(JSON.stringify({ order_id: id, customer, amount, currency: 'EUR' }));
    case 'json':
      return encoder.encode(
        JSON.stringify({ orders: [{ id, customer: { name: customer }, amount, currency: 'EUR' }] }),
      );
    case 'yaml':
      return encoder.encode(`id: ${id}\ncustomer: ${customer}\namount: ${amount}\ncurrency: EUR\n`);
    case 'toml':
      return encoder.encode(
        `[order]\nid = "${id}"\ncustomer = "${customer}"\namount = ${amount}\ncurrency = "EUR"\n`,
      );
    case 'xml':
      return encoder.encode(
        `<order id="${id}"><customer>${customer}</customer><amount>${amount}</amount><currency>EUR</currency></order>`,
      );
    case 'cbor':
      return cborMap({ order_id: id, customer, amount, currency: 'EUR' });
  }
}

/** A payment for order `n`. */
export function paymentBody(n: number): Uint8Array {
  return encoder.encode(JSON.stringify({ payment_id: `P-${n}`, order_id: `S-${n}`, amount: n % 10_000 }));
}

const BAD: Record<HttpFormat, (string | Uint8Array)[]> = {
  wire: [
    '{"order_id":1}',
    '{not json',
    '{"order_id":"x","customer":"c","amount":1,"currency":"E","extra":1}',
    '',
  ],
  json: ['{"orders":[{"id":1}]}', '{"orders": [', '[1,2,3]', '"text"'],
  yaml: ['[[[[', 'id: [1, 2]\n', 'a: &x 1\nb: *y\n', ': :'],
  toml: ['x = = 1', '[order]\nid = 1\n', '[[order]]\n[order]\n', '"unterminated'],
  xml: ['<order id="x"><customer>c</customer>', '<nope/>', '<a></b>', 'not xml'],
  cbor: [
    new Uint8Array([0xff]),
    new Uint8Array([0x1c]),
    new Uint8Array([0x63, 0x61, 0x62, 0x63]),
    new Uint8Array([]),
  ],
};

/** The i-th bad body of `format`. */
export function badBody(format: HttpFormat, index: number): Uint8Array {
  const bodies = BAD[format];
  const body = bodies[index % bodies.length] ?? '';
  return typeof body === 'string' ? encoder.encode(body) : body;
}

/** The worst-case families, each with the ingestor that reads its format. */
export const WORST_CASES: { family: BodyFamily; format: HttpFormat }[] = BODY_FAMILIES.map((family) => ({
  family,
  format: family.format === 'wire-json' ? 'wire' : (family.format.toLowerCase() as HttpFormat),
}));

/** A good RFC 5424 line. */
export function syslogLine(transport: string, n: number): string {
  return `<134>1 2026-11-27T09:00:00.000Z soak-host soak ${n % 1000} ${transport} - soak line ${n} over ${transport}`;
}

/** Frames that fail the SYSLOG codec, one message error each (SR3021, SR3022, SR3023, SR3024). */
const BAD_LINES = [
  '<13>1 soak-host',
  '<13>1 2026-13-45T99:99:99Z soak-host soak - - - bad time',
  '<13>1 - soak-host soak - - [bad x',
  `<13>1 - ${'h'.repeat(300)} soak - - - long host`,
];

export function badSyslogLine(index: number): string {
  return BAD_LINES[index % BAD_LINES.length] ?? '';
}

/** An RFC 6587 octet-counted frame. */
export function octetCounted(line: string): Buffer {
  const bytes = Buffer.from(line);
  return Buffer.concat([Buffer.from(`${bytes.length} `), bytes]);
}

/** A CBOR map of short text keys to text or small unsigned integers (all the good bodies need). */
function cborMap(value: Record<string, string | number>): Uint8Array {
  const parts: number[] = [0xa0 + Object.keys(value).length];
  const text = (s: string) => {
    const bytes = encoder.encode(s);
    if (bytes.length < 24) parts.push(0x60 + bytes.length);
    else parts.push(0x78, bytes.length);
    parts.push(...bytes);
  };
  for (const [key, field] of Object.entries(value)) {
    text(key);
    if (typeof field === 'string') text(field);
    else if (field < 24) parts.push(field);
    else if (field < 256) parts.push(0x18, field);
    else parts.push(0x19, field >> 8, field & 0xff);
  }
  return new Uint8Array(parts);
}
