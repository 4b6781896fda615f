// docs/errors.md indexes every catalog of codes and reasons: each row names the constant or type in the
// code and the pages that list it. The names and the links must stay true when code or docs move.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCS = join(ROOT, 'docs');

interface Row {
  catalog: string;
  code: string;
  listed: string;
}

function indexRows(): Row[] {
  const text = readFileSync(join(DOCS, 'errors.md'), 'utf8');
  const start = text.indexOf('| Catalog |');
  // The index table runs to the next heading.
  const table = text.slice(start, text.indexOf('\n## ', start));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Catalog') && !line.startsWith('|---'))
    .map((line) => {
      const [catalog = '', , code = '', listed = ''] = line.split(' | ').map((cell) => cell.trim());
      return { catalog: catalog.replace(/^\| /, ''), code, listed: listed.replace(/ \|$/, '') };
    });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(DOCS, page), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading = '']) => anchorOf(heading)));
}

describe('the index of code catalogs (docs/errors.md)', () => {
  const rows = indexRows();

  it('has the catalogs', () => assert.ok(rows.length >= 10, `${rows.length} rows`));

  for (const row of rows) {
    it(`${row.catalog}: the code defines what the row names`, () => {
      const pairs = [...row.code.matchAll(/`([A-Za-z_]+)`, `([\w/.-]+\.ts)`/g)];
      const files = [...row.code.matchAll(/`([\w/.-]+\.ts)`/g)].map(([, file = '']) => file);
      assert.ok(files.length > 0, row.code);
      for (const file of files) readFileSync(join(ROOT, file), 'utf8');
      for (const [, name = '', file = ''] of pairs) {
        const source = readFileSync(join(ROOT, file), 'utf8');
        assert.match(
          source,
          new RegExp(`export (const|type|interface|class) ${name}\\b`),
          `${name} in ${file}`,
        );
      }
    });

    it(`${row.catalog}: every link goes to a heading that exists`, () => {
      const links = [...row.listed.matchAll(/\]\(([\w.-]+\.md)?#([\w-]+)\)/g)];
      assert.ok(links.length > 0, row.listed);
      for (const [, page = 'errors.md', anchor = ''] of links) {
        assert.ok(anchorsOf(page).has(anchor), `${page}#${anchor}`);
      }
    });
  }
});
