// Hand-picked corners of jq 1.8 where a compiler to JavaScript is easily wrong, each run on the compiled
// path and on jq-wasm at test time (the answers are jq's, never written here): number printing, ordering,
// strings by code point, error propagation, generators, and the builtins' edge cases. A row whose program
// the compiler leaves to jq-wasm is not compared; the last test requires most rows to be compiled.
import assert from 'node:assert/strict';
import { compileJq } from './compile-jq.js';
import { inputFromText } from '../../../../test/support/jq-diff/input-arbitrary.js';
import { JqOracle } from '../../../../test/support/jq-diff/jq-oracle.js';
import { describeMismatch, differential, Tally } from '../../../../test/support/jq-diff/differential.js';

/** [program, input texts…] (no inputs: `null`). */
type Row = [string, ...string[]];

/** Rows of programs that need no input. */
const each = (...programs: string[]): Row[] => programs.map((program): Row => [program]);

const NUMBERS = ['1e16', '10000000000000000', '1.50', '1e2', '-0', '1e-7', '0.1', '3.0', '100000000000000000000', '1.7976931348623157e308', '5e-324', '9007199254740993', '-9223372036854775808', '123456789.123456789']; // prettier-ignore

const TABLE: Record<string, Row[]> = {
  'number printing in tostring, tojson and interpolation': [
    ['[., tostring, tojson, "\\(.)", (. + 0 | tostring), -.]', ...NUMBERS],
    ['[100000000 * 100000000, 10000000000000000] | map(tostring)'],
    ['[0.1 + 0.2, 1 / 3, 2 / 3 * 3, 1 / 10000000, 100 / 1, 0 * -1, -0] | map(tostring), map(tojson)'],
    ['[9007199254740993 + 0, 9007199254740993, -9007199254740993] | tostring'],
    ['{a: .} | tostring, tojson', '1.50', '{"b":1,"a":2}', '[1,"x",null]', '"\\u0000é😀"'],
    ['"x\\(.)y"', '"str"', 'null', '{"a":[1,2]}', '1e1000', '-0'],
  ],
  'comparison and sort order of mixed types': [
    ['sort', '[null,true,false,0,-1,"a","B",[],[0],{},{"a":1},"",1.5]'],
    ['[.[] as $x | .[] | [$x < ., $x == ., $x >= .]]', '[null,false,true,0,"0",[],{}]'],
    ['[1 == 1.0, 1 == "1", [1] == [1.0], {"a":1} == {"a":1.0}, null == false]'],
    ['[9007199254740993 == 9007199254740992, 9007199254740993 < 9007199254740994]'],
    ['[.[0] == .[1], .[0] < .[1]]', '[9007199254740993, 9007199254740992]', '[100000000000000000001, 1e20]'],
  ],
  'strings by code point': [
    ['sort', '["\\uffff","😀","a","é","","A"]'],
    ['["\\uffff" < "😀", "😀" < "\\uffff", ("😀" | length), ("😀" | utf8bytelength), ("a😀b" | .[1:2])]'],
    ['explode', '"a😀\\uffff"'],
    ['[.[] | explode] | sort', '["😀","\\uffff"]'],
    ['implode', '[128512, 97]'],
  ],
  'object comparison': [
    ['[{"a":2} < {"b":1}, {"a":1,"b":2} < {"a":2}, {"b":1} < {"a":1,"c":0}, {"a":[1]} < {"a":[0,1]}]'],
    ['sort', '[{"b":1},{"a":2},{"a":1,"b":0},{},{"a":1}]'],
  ],
  '// with errors on the left': [
    ['(error("x")) // 1'],
    ['(1, error("x")) // 2'],
    ['(null, error("x")) // 2'],
    ['[(false, 3, null, 4) // 5]'],
    ['[empty // 5]'],
    ['.a.b // "d"', '"str"', '{"a":"x"}', '{"a":{"b":false}}'],
    ['[.[] // "none"]', '[]', '[null,false]', '{"a":null,"b":1}', '3'],
  ],
  // found by the fuzz runner in CI: unary minus binds tighter than `*` (`(-1 * ..)? and . and {}` on "")
  'unary minus before * / %': [
    ['[-1 * "a"], [-.x * "a"]?, [- "a" * 2]?, [-2 % 3], [-.x / 2]', '{"x":1}', '{"x":"s"}'],
    ['(-1 * ..)? and . and {}', '""'],
    // jq negates a literal's text: an input written with an exponent stays so; a computed one is digits
    ['[-., ., . + 1, -(. + 1)]', '9.223372036854776e+18', '9223372036854775807', '1e300', '-0'],
    ['try error(. * 10) catch .', '9.223372036854776e+18', '12'],
  ],
  // found by the fuzz runner: inside an array or object, a value of another kind is not contained
  'contains below the top': [
    ['[contains({a: [{t: []}]}), contains({a: [{t: "x"}]}), inside({a: [{t: 1}, {t: []}], b: 2})]?', '{"a":[{"t":1},{"t":[]}]}'],
    ['[contains([[1]]), contains(["s", [1]]), contains([{}])]?', '[[1],"s"]'],
  ],
  'binary operators with generators on both sides': [
    ['[(1,2) + (10,20)]'],
    ...each('[(1,2) * (3,4)]', '[(1,2) - (10,20)]', '[("a","b") + ("x","y")]'),
    ['[{a: (1,2), b: (3,4)}]'],
    ...each('[(1,2) < (2,1)]', '[(true, false) and (true, false)]', '[(false, true) or (false, true)]'),
    ['["\\(1,2)-\\(3,4)"]'],
  ],
  'limit, first and try stopping at the first error': [
    ...each('[limit(3; range(10))]', '[limit(0; 1, 2)]', '[limit(-1; 1, 2)]', '[limit(1; 1, error("x"))]'),
    ...each('first(empty)', '[first(range(5))]', 'first(1, error("x"))'),
    ['[first, last]', '[]', '[1,2]', '"ab"'],
    ...each('[try (1, error("x"), 3)]', '[(1, error("x"), 3)?]'),
    ['[.[] | try tonumber]', '["1","x","3"]'],
    ...each('try error("x") catch .', 'try error({a: 1}) catch .a', 'try error(null) catch .', '[try error catch .]'),
    ...each('error(null)', 'error', 'error({a: 1})', 'error("x")', '[.[] | error]'),
    ['[.[]?], [.a?], [.[0]?], [..]', '3', '"s"', '{"a":[1,{"b":2}]}', '[[0]]'],
  ],
  'reduce and foreach': [
    ...each('reduce range(5) as $x (0; . + $x)', 'reduce empty as $x (0; .)', 'reduce (1, 2) as $x (0; empty)'),
    ['reduce (1, 2) as $x (0; ., 10)'],
    ['reduce .[] as $x (null; . + $x)', '[1,null,2]', '["a","b"]', '[]', '{"a":[1],"b":[2]}'],
    ...each('[foreach range(5) as $x (0; . + $x)]', '[foreach range(5) as $x (0; . + $x; [$x, .])]'),
    ...each('[foreach (1, 2) as $x (0; empty; .)]', '[foreach (1, 2) as $x (0; ., 10; .)]'),
  ],
  'to_entries, from_entries, with_entries': [
    ['to_entries', '{"b":1,"a":2,"1":3}', '{"__proto__":1,"constructor":2}', '[5,6]', '"x"'],
    ['from_entries', '[{"key":1,"value":2}]', '[{"k":"a","v":3}]', '[{"name":"n"}]', '[{"key":null,"value":1}]', '[{"key":false}]', '[{"key":true}]', '[{"Key":"K","Value":1},{"Name":"N"}]', '[]', '[{"key":"__proto__","value":1}]'],
    ['with_entries(select(.key != "a"))', '{"a":1,"b":2}'],
    ['with_entries({key: (.key | ascii_upcase), value})', '{"a":1,"b":2}'],
    ['with_entries({key: .value, value: .key})', '{"a":"x","b":1}'],
  ],
  'split and join': [
    ['split(",")', '"a,b,,c"', '""', '","', '1'],
    ['split("")', '"a😀b"', '""'],
    ['join("-")', '[1,null,"a",true]', '[[1]]', '[]', '[{"a":1}]', '["a"]', '"ab"'],
    ['join(null)', '["a","b"]'],
    ['join(1)', '["a","b"]'],
  ],
  'ltrimstr, rtrimstr, startswith with non-strings': [
    ['[ltrimstr("1"), rtrimstr("1")]', '1', '"11"', 'null', '["1"]'],
    ['[ltrimstr(1), rtrimstr(null), ltrimstr("")]', '"abc"'],
    ['startswith("a")', '1', '"abc"'],
    ['startswith(1)', '"abc"'],
    ['endswith("c")', 'null'],
  ],
  'implode errors': [
    ['implode', '[1114112]', '[-1]', '["a"]', '[55296]', '"a"', '[65.5]', '[]', 'null'],
  ],
  'tonumber on odd strings': [
    ['tonumber', '" 1"', '"1 "', '"0x10"', '"1e2"', '"nan"', '"-0"', '"+1"', '".5"', '"1."', '""', '"Infinity"', '"00012"', '"1e1000"', '"9007199254740993"', '"1.50"', 'true', '[1]'],
  ],
  'keys, has, length': [
    ['keys', '[5,6]', '"a"', '{"b":1,"a":2,"10":0,"9":0}', 'null'],
    ['keys_unsorted', '{"b":1,"a":2,"10":0,"9":0}'],
    ['[has(0), has(2), has(-1), has(1.5)]', '[1,2]'],
    ['has("1")', '{"1":2}'],
    ['has(0)', '{"a":1}'],
    ['has("a")', '[1]'],
    ['length', '-5', 'null', '{"a":1}', 'true', '"😀"', '-0', '1.5', '[1,[2]]', '-9223372036854775808'],
  ],
  'slices and fractional indexes': [
    ['[.[-2:], .[:-1], .[1.5:2.7], .[1.2:], .[-1.5:], .[null:2], .[10:], .[3:1]]', '[1,2,3,4,5]', '"abcdef"', 'null'],
    ['[.[1.7], .[-1.2], .[-1], .[10], .[1e300]]', '[1,2,3]'],
    ['.["a"]', '[1]'],
    ['.[0]', '{"a":1}'],
  ],
  'add, arithmetic and string operators': [
    ['add', '[1,null,2]', '["a",null,"b"]', '[[1],[2]]', '[{"a":1},{"b":2}]', '[1,"a"]', '[]', '[null]', '{"a":1,"b":2}'],
    ['[. * 3, . * 0, . * -1, . * 0.5, . * 1.5, 3 * .]', '"a"'],
    ['[. / ",", ("" / ","), ("a" / "")]', '"a,b"'],
    ['. * {"a":{"b":3}}', '{"a":{"b":1,"c":2}}', '{"a":1}', '{"a":{"b":{"c":1}}}'],
    ...each('{} * null', '{"a":{"b":1}} * {"a":2}'),
    ['. - [1]', '[1,2,1,3]', '[[1],{"a":1},1.0]', '1'],
    ...each('[5 % -2, -5 % 2, 5.5 % 2, 5 % 2.5, 10000000000000000000 % 7, -0 % 3]', '5 % 0.5', '1 % 0', '1 / 0', '0 / 0'),
    ['[.[] | round]', '[-2.5,-0.5,0.5,2.5,1.5]'],
    ['[.[] | floor, ceil, fabs, abs, sqrt]', '[-1.5,-0,4,9007199254740993]'],
    ['abs', '"a"', 'null', '-9223372036854775808'],
    ['. + 1, . - 1, -.', '9007199254740993', '9223372036854775807', '-0'],
  ],
  'ascii case, contains, trim': [
    ['[ascii_downcase, ascii_upcase]', '"ÀÉ İ ABC àé ß abc"', '1'],
    ['contains("bar")', '"foobar"', '"a\\u0000bar"', '1'],
    ['contains({"a":[1]})', '{"a":[1,2,"x"]}', '{"a":1}'],
    ['contains(["bar"])', '["foobar"]'],
    ['contains(1)', '"a"'],
    ['inside("foobar")', '"bar"'],
    ['[trim, ltrim, rtrim]', '"  x  "', '"\\u00a0x\\t\\n"', '1'],
  ],
  'sort_by, group_by, unique_by stability; min_by, max_by ties': [
    ['sort_by(.a)', '[{"a":1,"i":1},{"a":0,"i":2},{"a":1,"i":3},{"i":4}]'],
    ['sort_by(.b, .a)', '[{"a":2,"b":1},{"a":1,"b":1},{"a":0,"b":0}]'],
    ['group_by(.a)', '[{"a":1,"i":1},{"a":0,"i":2},{"a":1,"i":3}]'],
    ['unique_by(.a)', '[{"a":1,"i":1},{"a":0,"i":2},{"a":1,"i":3}]'],
    ['[min_by(.a), max_by(.a)]', '[{"a":1,"i":0},{"a":1,"i":1},{"a":0,"i":2},{"a":0,"i":3}]', '[]'],
    ['[min, max, unique, reverse]', '[1,1.0,"a",null,[1]]', '[]', '"ab"'],
    ['sort', '{"a":1}'],
  ],
  '$ENV and env': each('$ENV', 'env', '$ENV.PATH', 'env | length', '{$ENV}'),
  'paths that miss, objects with odd keys, if without else': [
    ['.a', 'null', '1', '"x"', '[1]'],
    ['.__proto__, .constructor, .toString, ."1"', '{"__proto__":{"a":1},"constructor":2}', '{}'],
    ['{(.k): 1}', '{"k":"__proto__"}', '{"k":1}', '{"k":null}'],
    ['if . then 1 end', 'null', 'false', '0', '""'],
    ['[range(0), range(-1), range(1.5), range(0; 1.5), range(3; 0)]'],
    ['[.[] | isempty(.[]?)]', '[[],[1],{},1]'],
    ['isempty(error("x"))'],
    ['[any, all]', '[]', '[false,1]', '[null]'],
  ],
  'found by the differential test (/work/notes/jaq-mismatches.md)': [
    ['[.[][]?]', '["",[1]]'],
    ['.a.b?', '"x"'],
    ['[.[error("x")]?]', 'null'],
    ['[.[(0,1):(2,3)]]', '[1,2,3,4]'],
    ['[foreach (1,2,3) as $x (0; if $x == 2 then empty else . + 1 end)]'],
    ['[reduce . as $x (1,2; [., $x])]', '"in"'],
    ['[-(length), 0 * -1, -range(-1; 1)]', '{}'],
    ['[has("a")?]', 'null'],
    ['try "\\(error)\\(.a)" catch .', '5'],
    ['{(null): 1}'],
    ['tostring', '{"a":12345678901234567890.0}', '[9.007199254740993e+15]'],
  ],
}; // prettier-ignore

describe('compiled jq: jq 1.8 semantics, corner by corner (answers from jq-wasm)', function () {
  this.timeout(30_000);
  let oracle: JqOracle;
  const tally = new Tally();

  before(async () => {
    oracle = await JqOracle.load();
  });

  for (const [topic, rows] of Object.entries(TABLE)) {
    it(topic, function () {
      const found: string[] = [];
      const outsideBefore = tally.outside;
      let programs = 0;
      for (const [program, ...texts] of rows) {
        programs++;
        const inputs = (texts.length === 0 ? ['null'] : texts).map(inputFromText);
        const mismatch = differential({ compile: compileJq, oracle, tally }, program, inputs);
        if (mismatch !== undefined) found.push(describeMismatch(mismatch));
      }
      if (tally.outside - outsideBefore === programs) this.skip(); // every program here runs on jq-wasm
      assert.deepEqual(found, []);
    });
  }

  it('the compiler takes at least 90% of these programs', () => {
    const share = (tally.programs - tally.outside) / tally.programs;
    assert.ok(share >= 0.9, `${Math.round(share * 100)}% compiled: ${[...tally.outsideReasons].join('; ')}`);
  });
});
