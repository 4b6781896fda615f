import { xmlFormat } from '../dataplane/codecs/formats/xml-format.js';
for (const n of [5_000, 20_000, 40_000]) {
  const text = '<a>' + '<!DOCTYPE '.repeat(n);
  const t0 = performance.now();
  const r = xmlFormat.read(new TextEncoder().encode(text));
  console.log(n, text.length, 'bytes', Math.round(performance.now() - t0), 'ms', JSON.stringify(r).slice(0, 120));
}
