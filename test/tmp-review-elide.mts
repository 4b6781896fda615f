import { loadJq } from 'jq-wasm';
import { runtimeProblem } from '../dataplane/codecs/jaq/jaq-program.js';
const jq = await loadJq();
const input = JSON.stringify({ s: 'hunter2 secret', n: 'x1 y2 z3', d: 'nota-date', b: '!!!!', num: 987654321 });
for (const p of ['.s | fromjson', '.n | fromjson', '.s | tonumber', '.d | strptime("%Y-%m-%d")', '.s | test(.s + "(")',
  '.s | @base64d', '.num | implode', '.s | ltrimstr(1)', '.s | .[0]', '.num | error', '{a:.s} | error', '.s | splits(1)',
  '.s | fromdate', '.num as [$a] | $a', '.s | error', '"\\(.s)x" | error', '.s | todate', '.num | ascii_downcase', '.s | ascii', '.s|@sh "\\(.)"|fromjson',
  '.s | getpath(["a"])', '.s | has("a")', '.s | [.[]]', '.s | sub("(?<x>"; "")', '.s | tojson | fromjson | .[1:] | fromjson', '.s|gsub("";"")|error', '[.s] | join(1)', '.s | capture(.s)', '.s | input']) {
  const r = jq.raw(input, `try (${p}) catch .`, ['-c']);
  let v; try { v = JSON.parse(r.stdout); } catch { v = r.stdout + ' / ' + r.stderr; }
  console.log(p.padEnd(40), '|', JSON.stringify(v).slice(0, 100), '=>', typeof v === 'string' ? runtimeProblem(v, false) : '');
}
