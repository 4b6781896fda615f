import assert from 'node:assert/strict';
import type { JsonValue } from '../json-value.js';
import { MAX_DEPTH } from './format-limits.js';
import { xmlFormat } from './xml-format.js';
import {
  assertError,
  hex,
  inputsOf,
  readError,
  writeError,
  writtenText,
} from '../../../test/fixtures/payload-formats.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

describe('XML payload format', () => {
  describe('read: the JSON view', () => {
    const cases: [string, string, string][] = [
      ['a text-only element is its text', '<id>42</id>', '{"id":"42"}'],
      ['an empty element is ""', '<a/>', '{"a":""}'],
      [
        'child elements are always arrays, even one',
        '<order><id>7</id><item>a</item></order>',
        '{"order":{"id":["7"],"item":["a"]}}',
      ],
      [
        'repeated children keep their order',
        '<o><i>1</i><x/><i>2</i><i>3</i></o>',
        '{"o":{"i":["1","2","3"],"x":[""]}}',
      ],
      [
        'attributes with @, first, in document order',
        '<o id="7" b=\'x\'><i>1</i></o>',
        '{"o":{"@id":"7","@b":"x","i":["1"]}}',
      ],
      [
        'attributes and text',
        '<price currency="EUR">12.50</price>',
        '{"price":{"@currency":"EUR","#text":"12.50"}}',
      ],
      ['attributes and no text', '<flag on="1"/>', '{"flag":{"@on":"1"}}'],
      [
        'nothing is coerced: all text stays strings',
        '<r><a>01234</a><b>1e5</b><c>true</c><d attr="0x1F"/></r>',
        '{"r":{"a":["01234"],"b":["1e5"],"c":["true"],"d":[{"@attr":"0x1F"}]}}',
      ],
      [
        'indentation between elements is dropped',
        '<a>\n  <b>x</b>\n  <b>y</b>\n</a>\n',
        '{"a":{"b":["x","y"]}}',
      ],
      ['the text of a leaf element is kept exactly', '<a>  x \n</a>', '{"a":"  x \\n"}'],
      ['white space alone in a leaf is kept', '<a>  </a>', '{"a":"  "}'],
      [
        'mixed content: the text pieces joined, as written',
        '<p>Hello <b>big</b> world</p>',
        '{"p":{"#text":"Hello  world","b":["big"]}}',
      ],
      ['CDATA is text, taken literally', '<a><![CDATA[<b>&amp;</b>]]></a>', '{"a":"<b>&amp;</b>"}'],
      ['CDATA and text join', '<a>x<![CDATA[<y>]]>z</a>', '{"a":"x<y>z"}'],
      [
        'the predefined entities and character references',
        '<a t="&quot;&apos;">&lt;&gt;&amp;&#65;&#x42;&#x1F600;</a>',
        '{"a":{"@t":"\\"\'","#text":"<>&AB😀"}}',
      ],
      [
        'attribute values are normalised: raw tabs and newlines are spaces',
        '<a v="x\ty\nz&#10;"/>',
        '{"a":{"@v":"x y z\\n"}}',
      ],
      ['CR LF is LF in text', '<a>x\r\ny</a>', '{"a":"x\\ny"}'],
      [
        'names keep their prefixes; xmlns is an attribute',
        '<s:Env xmlns:s="urn:s"><s:Body/></s:Env>',
        '{"s:Env":{"@xmlns:s":"urn:s","s:Body":[""]}}',
      ],
      [
        'comments, PIs and the declaration are dropped',
        '<?xml version="1.0"?>\n<!-- c --><?pi x?><a><!-- in -->x<?p?></a>\n<!-- after -->',
        '{"a":"x"}',
      ],
      [
        'a DOCTYPE without an internal subset is ignored',
        '<!DOCTYPE note SYSTEM "note.dtd"><note>x</note>',
        '{"note":"x"}',
      ],
      [
        'names that are JavaScript internals are ordinary names',
        '<constructor __proto__="1"><prototype/><toString/><__proto__/></constructor>',
        '{"constructor":{"@__proto__":"1","prototype":[""],"toString":[""],"__proto__":[""]}}',
      ],
      ['a byte-order mark is dropped', '\ufeff<a/>', '{"a":""}'],
      [
        'a DOCTYPE after the declaration, comments and PIs of the prolog is ignored',
        '<?xml version="1.0"?>\n<!-- c -->\n<?pi x?>\n<!DOCTYPE note SYSTEM "note.dtd">\n<note>x</note>',
        '{"note":"x"}',
      ],
      [
        'a DOCTYPE inside a comment is just a comment',
        '<a><!-- <!DOCTYPE x [ <!ENTITY e "y"> ]> --></a>',
        '{"a":""}',
      ],
    ];
    for (const [name, payload, input] of cases) {
      it(name, () => assert.deepEqual(inputsOf(xmlFormat, payload), [input]));
    }
  });

  describe('read: errors', () => {
    const cases: [string, string, string, RegExp][] = [
      ['an unmatched tag', '<a><b></a>', 'SR3010', /^XML: a malformed or unmatched tag at line 1, column 7$/],
      [
        'a repeated attribute',
        '<a x="1" x="2"/>',
        'SR3010',
        /^XML: a malformed or repeated attribute at line 1, column 10$/,
      ],
      ['an empty payload', '', 'SR3010', /^XML: not well-formed XML at line 1$/],
      ['plain text', 'hello', 'SR3010', /^XML: an unexpected character at line 1, column 1$/],
      ['text after the root', '<a></a>x', 'SR3010', /^XML: not well-formed XML at line 1, column 8$/],
      [
        'text after a self-closing root',
        '<a/>\n<!-- c --> x',
        'SR3010',
        /^XML: content after the root element at line 2, column 12$/,
      ],
      [
        'an element after a self-closing root',
        '<?xml version="1.0"?><a x="/>"/><b/>',
        'SR3010',
        /content after the root element at line 1, column 33$/,
      ],
      ['two roots', '<a></a><b/>', 'SR3010', /^XML: more than one root element$/],
      [
        'two roots, the first self-closing',
        '<a/><b/>',
        'SR3010',
        /^XML: content after the root element at line 1, column 5$/,
      ],
      [
        'an undefined entity',
        '<r><a>&nbsp;</a></r>',
        'SR3010',
        /^XML: an undefined entity in element \/\*\[1\]\/\*\[1\] \(only amp, lt, gt, quot and apos are predefined\)$/,
      ],
      [
        'a bare ampersand',
        '<a>fish & chips</a>',
        'SR3010',
        /^XML: an unexpected character at line 1, column 9$/,
      ],
      [
        'a reference to NUL',
        '<a>&#0;</a>',
        'SR3010',
        /a reference to a character XML does not allow in element \/\*\[1\]$/,
      ],
      [
        'a reference to a surrogate',
        '<a v="&#xD800;"/>',
        'SR3010',
        /a reference to a character XML does not allow/,
      ],
      [
        'a control character',
        '<a>x\u0001</a>',
        'SR3010',
        /^XML: a character XML does not allow at line 1, column 5$/,
      ],
      [
        'a < in an attribute value',
        '<a b="<"/>',
        'SR3010',
        /^XML: a '<' inside an attribute value in element \/\*\[1\]$/,
      ],
      [']]> in text', '<a>]]></a>', 'SR3010', /^XML: '\]\]>' in text content in element \/\*\[1\]$/],
      ['an unnamed attribute', '<a x=1/>', 'SR3010', /malformed or repeated attribute/],
    ];
    for (const [name, payload, code, reason] of cases) {
      it(name, () => assertError(readError(xmlFormat, payload), code as 'SR3010', reason));
    }

    it('is SR3001 for invalid UTF-8 (an encoding declaration does not change that)', () => {
      const payload = Buffer.concat([
        Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>'),
        Buffer.from([0xe9]),
        Buffer.from('</a>'),
      ]);
      assertError(
        readError(xmlFormat, payload),
        'SR3001',
        new RegExp(`\\(byte offset ${payload.indexOf(0xe9)}\\)$`),
      );
    });

    it('never quotes the payload', () => {
      const { reason } = readError(xmlFormat, '<password>hunter2 &secret;</password>');
      assert.doesNotMatch(reason, /hunter2|secret/);
    });
  });

  describe('read: entity tricks and limits', () => {
    it('refuses a billion laughs before expanding anything (SR3011)', () => {
      const payload =
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n' +
        Array.from(
          { length: 9 },
          (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
        ).join('\n') +
        '\n]>\n<lolz>&lol9;</lolz>';
      assertError(
        readError(xmlFormat, payload),
        'SR3011',
        /^XML: a DOCTYPE with an internal subset \(entity declarations are refused\) at line 2, column 1$/,
      );
    });

    it('refuses an external entity (SR3011): nothing is ever fetched', () => {
      const payload = '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>';
      assertError(readError(xmlFormat, payload), 'SR3011', /internal subset/);
    });

    it('refuses a parameter entity (SR3011)', () => {
      assertError(
        readError(xmlFormat, '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://x/">%p;]><r/>'),
        'SR3011',
        /internal subset/,
      );
    });

    it('finds the subset past a quoted ">" in the DOCTYPE', () => {
      assertError(
        readError(xmlFormat, '<!DOCTYPE r SYSTEM "a>b" [<!ENTITY e "x">]><r/>'),
        'SR3011',
        /internal subset/,
      );
    });

    const misplaced: [string, string, RegExp][] = [
      ['a second DOCTYPE', '<!DOCTYPE a>\n<!DOCTYPE a><a/>', /at line 2, column 1$/],
      ['a DOCTYPE inside the root element', '<a><!DOCTYPE a></a>', /at line 1, column 4$/],
      ['a DOCTYPE after the root element', '<a></a><!DOCTYPE a>', /at line 1, column 8$/],
      ['a DOCTYPE after the root, with a subset', '<r/><!DOCTYPE r [<!ENTITY e "x">]>', /column 5$/],
    ];
    for (const [name, payload, at] of misplaced) {
      it(`refuses ${name} (SR3010: one DOCTYPE at most, in the prolog)`, () => {
        const { code, reason } = readError(xmlFormat, payload);
        assert.equal(code, 'SR3010', reason);
        assert.match(
          reason,
          /^XML: a DOCTYPE after the prolog or after another DOCTYPE \(a document has at most one, before the root element\) at /,
        );
        assert.match(reason, at);
      });
    }

    it('regression: a 1 MiB payload of repeated <!DOCTYPE is refused quickly (the DOCTYPE check was quadratic)', () => {
      const MiB = 1024 * 1024;
      const many = (prefix: string): string =>
        prefix + '<!DOCTYPE '.repeat(Math.floor((MiB - prefix.length) / 10));
      // In the root (the old check scanned to the end of the text from each one), after a DOCTYPE, unclosed.
      for (const payload of [many('<a>'), many('<!DOCTYPE r>'), many('')]) {
        const started = performance.now();
        assert.equal(readError(xmlFormat, payload).code, 'SR3010');
        // The old check took 4.4 s for 200 KB and grew as n² (minutes for 1 MiB); this takes milliseconds.
        const took = performance.now() - started;
        assert.ok(took < 1000, `${took.toFixed(0)} ms`);
      }
    });

    it('regression: a DOCTYPE whose quoted literal is never closed is SR3010 (reading it never ended)', () => {
      assertError(
        readError(xmlFormat, "<!DOCTYPE a 'x><a>y</a>"),
        'SR3010',
        /^XML: a DOCTYPE that is never closed at line 1, column 1$/,
      );
    });

    it('an entity that is used but not declared is SR3010', () => {
      assertError(readError(xmlFormat, '<r>&xxe;</r>'), 'SR3010', /undefined entity/);
    });

    it('regression: entities named like JavaScript internals are undefined too', () => {
      for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        assertError(readError(xmlFormat, `<r a="&${name};"/>`), 'SR3010', /undefined entity/);
      }
    });

    it(`reads elements nested ${MAX_DEPTH} deep`, () => {
      assert.equal(inputsOf(xmlFormat, '<a>'.repeat(MAX_DEPTH) + '</a>'.repeat(MAX_DEPTH)).length, 1);
    });

    for (const depth of [MAX_DEPTH + 1, MAX_DEPTH + 2, 100_000]) {
      it(`refuses elements nested ${depth} deep (SR3011)`, () => {
        assertError(
          readError(xmlFormat, '<a>'.repeat(depth) + '</a>'.repeat(depth)),
          'SR3011',
          /^XML: elements nested deeper than 256/,
        );
      });
    }

    it('refuses a self-closing element one level too deep', () => {
      assertError(
        readError(xmlFormat, `${'<a>'.repeat(MAX_DEPTH)}<b/>${'</a>'.repeat(MAX_DEPTH)}`),
        'SR3011',
        /at element …(\/\*\[1\]){8}$/,
      );
    });
  });

  describe('write: the mapping backwards, with an XML declaration', () => {
    const cases: [string, JsonValue, string][] = [
      ['a text-only root', { id: '42' }, '<id>42</id>'],
      ['an empty element', { a: '' }, '<a/>'],
      ['null is an empty element', { a: null }, '<a/>'],
      ['children from arrays, in order', { o: { i: ['1', '2'], x: [''] } }, '<o><i>1</i><i>2</i><x/></o>'],
      ['a single child may be given without an array', { o: { id: '7' } }, '<o><id>7</id></o>'],
      [
        'attributes, text and children',
        { p: { '@lang': 'en', '#text': 'Hi', b: ['x'] } },
        '<p lang="en">Hi<b>x</b></p>',
      ],
      [
        'numbers and booleans as their JSON text',
        { r: { n: [1.5, 18446744073709551615n], t: true, '@k': -9223372036854775808n } },
        '<r k="-9223372036854775808"><n>1.5</n><n>18446744073709551615</n><t>true</t></r>',
      ],
      [
        'a null attribute or #text is left out',
        { a: { '@x': null, '#text': null, '@y': '1' } },
        '<a y="1"/>',
      ],
      [
        'text is escaped; CR kept as a reference',
        { a: 'x < y & "z" > w\r\n' },
        '<a>x &lt; y &amp; "z" &gt; w&#13;\n</a>',
      ],
      [
        'attribute values keep tabs and line breaks',
        { a: { '@v': 'a\tb\n"c"' } },
        '<a v="a&#9;b&#10;&quot;c&quot;"/>',
      ],
      [
        'names with prefixes',
        { 's:Env': { '@xmlns:s': 'urn:s', 's:Body': [''] } },
        '<s:Env xmlns:s="urn:s"><s:Body/></s:Env>',
      ],
    ];
    for (const [name, value, xml] of cases) {
      it(name, () => assert.equal(writtenText(xmlFormat, value), DECLARATION + xml));
    }

    it('writes __proto__ and constructor as ordinary names', () => {
      const value = JSON.parse('{"constructor":{"@__proto__":"1","__proto__":["x"]}}') as JsonValue;
      assert.equal(
        writtenText(xmlFormat, value),
        `${DECLARATION}<constructor __proto__="1"><__proto__>x</__proto__></constructor>`,
      );
    });

    const refused: [string, JsonValue, RegExp][] = [
      [
        'two roots',
        { a: '1', b: '2' },
        /^XML: cannot write a value that is not an object with exactly one key \(the root element\) at \.$/,
      ],
      ['no root', {}, /exactly one key/],
      ['an array', ['a'], /exactly one key/],
      [
        'an array as the root',
        { a: ['1', '2'] },
        /^XML: cannot write an array as the root element \(a document has one root\) at \.\{1\}$/,
      ],
      [
        'a bad element name',
        { a: { '1x': 'y' } },
        /an element whose name is not an XML name at \.\{1\}\.\{1\}$/,
      ],
      [
        'a bad attribute name',
        { a: { '@': 'y' } },
        /an attribute whose name is not an XML name at \.\{1\}\.\{1\}$/,
      ],
      [
        'an object as an attribute',
        { a: { '@x': { y: 1 } } },
        /an array or object where text belongs at \.\{1\}\.\{1\}$/,
      ],
      ['an array in an array', { a: { b: [['x']] } }, /an array inside an array .* at \.\{1\}\.\{1\}\[0\]$/],
      [
        'a control character',
        { a: { b: ['ok', 'x\u0000'] } },
        /a string with a character XML does not allow at \.\{1\}\.\{1\}\[1\]$/,
      ],
      ['a lone surrogate', { a: '\ud800' }, /a character XML does not allow at \.\{1\}$/],
      ['NaN', { a: NaN }, /NaN or an infinity at \.\{1\}$/],
    ];
    for (const [name, value, reason] of refused) {
      it(`refuses ${name} with SR3008`, () => assertError(writeError(xmlFormat, value), 'SR3008', reason));
    }

    it('round-trips 64-bit integers as text', () => {
      const xml = writtenText(xmlFormat, { r: { u: 18446744073709551615n, i: -9223372036854775808n } });
      assert.deepEqual(inputsOf(xmlFormat, xml), [
        '{"r":{"u":["18446744073709551615"],"i":["-9223372036854775808"]}}',
      ]);
    });

    it('reads back what it writes, for values in the mapping', () => {
      const value = {
        o: {
          '@id': '7',
          '#text': 'note',
          i: ['1', '', { '@k': 'v' }, { '@k': 'w', '#text': '  ' }],
          x: ['a<&>"\'\r\n\t'],
        },
      };
      assert.deepEqual(inputsOf(xmlFormat, writtenText(xmlFormat, value)), [JSON.stringify(value)]);
    });
  });

  it('reads hex payloads too (helpers sanity)', () => {
    assert.deepEqual(inputsOf(xmlFormat, hex('3c 61 2f 3e')), ['{"a":""}']);
  });
});
