// docs/metrics.md read back as the families it documents, and a registry (or a scrape) read as the families
// it serves, so the metric docs tests can compare the two both ways.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import type { MetricSpec, MetricType } from '../../dataplane/core/metric-spec.js';
import { registeredSpecs, SECTIONS } from '../../operator/tools/render-metric-docs.js';

export const METRIC_DOCS = join(import.meta.dirname, '..', '..', 'docs', 'metrics.md');

export type Section = keyof typeof SECTIONS;

/** The families of one section's table, by name. */
export function documentedFamilies(
  section: Section,
  text = readFileSync(METRIC_DOCS, 'utf8'),
): Map<string, MetricSpec> {
  const heading = `\n## ${SECTIONS[section]}\n`;
  const start = text.indexOf(heading);
  if (start === -1) throw new Error(`docs/metrics.md has no section "${SECTIONS[section]}"`);
  const end = text.indexOf('\n## ', start + heading.length);
  const body = text.slice(start, end === -1 ? undefined : end);
  const families = new Map<string, MetricSpec>();
  for (const line of body.split('\n')) {
    const match = /^\| `([a-z_0-9]+)` \| (counter|gauge|histogram|summary) \| (.*?) \| (.*) \|$/.exec(line);
    if (match === null) continue;
    const [, name = '', type = '', labels = '', help = ''] = match;
    families.set(name, {
      name,
      type: type as MetricType,
      help: help.replace(/\\\|/g, '|'),
      labels: labels === '' ? [] : labels.split(', ').map((label) => label.replace(/`/g, '')),
    });
  }
  return families;
}

/** The families a registry holds, by name. */
export function registeredFamilies(registry: Registry): Map<string, MetricSpec> {
  return new Map(registeredSpecs(registry).map((spec) => [spec.name, spec]));
}

/** A scrape's families: `# TYPE` and `# HELP` lines, and the label names its samples carry. */
export interface ScrapedFamily {
  type: string;
  help: string;
  sampleLabels: Set<string>;
}

export function scrapedFamilies(text: string): Map<string, ScrapedFamily> {
  const families = new Map<string, ScrapedFamily>();
  const family = (name: string): ScrapedFamily => {
    let found = families.get(name);
    if (found === undefined) {
      found = { type: '', help: '', sampleLabels: new Set() };
      families.set(name, found);
    }
    return found;
  };
  for (const line of text.split('\n')) {
    const meta = /^# (TYPE|HELP) (\S+) (.*)$/.exec(line);
    if (meta !== null) {
      const [, what, name = '', rest = ''] = meta;
      if (what === 'TYPE') family(name).type = rest;
      else family(name).help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+$/.exec(line);
    if (sample === null) continue;
    const [, series = '', labels = ''] = sample;
    // A histogram's series are <name>_bucket{le}, <name>_sum and <name>_count.
    const name = families.has(series) ? series : series.replace(/_(bucket|sum|count)$/, '');
    for (const [, label = ''] of labels.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g))
      if (label !== 'le') family(name).sampleLabels.add(label);
  }
  return families;
}
