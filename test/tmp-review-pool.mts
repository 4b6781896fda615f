import { JaqPool } from '../dataplane/codecs/jaq/jaq-pool.js';
import { jaqCodec } from '../dataplane/codecs/jaq/jaq-codec.js';

const pool = new JaqPool({ workers: 1 });
// warm up
console.log('warm', await pool.run('.', '0'));
// halt_error(2) with payload value
const outs = await Promise.all(['{"pw":"ok"}', '{"pw":"hunter2"}', '{"pw":"x"}'].map((i) =>
  pool.run('if .pw == "hunter2" then .pw | halt_error(2) else . end', i)));
console.log('halt_error(2):', JSON.stringify(outs));

// codec-level
const schema = { name: 's', fields: [{ name: 'pw', type: 'STRING', optional: false, sensitive: true }] } as any;
const codec = jaqCodec({ kind: 'jaq', name: 'c', format: 'JSON', ingestion: '.pw | halt_error(3)' } as any, schema, pool);
console.log('codec:', JSON.stringify(await codec.decode(new TextEncoder().encode('{"pw":"hunter2"}'))));

// close with in-flight batch
const inflight = pool.run('repeat(.)', '1');
let settled = false;
inflight.then((o) => { settled = true; console.log('inflight settled', o); });
await new Promise((r) => setTimeout(r, 200));
const t0 = Date.now();
await pool.close();
await new Promise((r) => setTimeout(r, 1500));
console.log('in-flight settled after close?', settled, Date.now() - t0);
