// DESCRIBE INGESTOR|EMITTER as text: what `streamroute describe …` and the DESCRIBE statement print. One
// `key: value` line per fact, metrics and details indented beneath, so it reads well and greps well.
import type { ComponentDescription } from '../../dataplane/core/status.js';

export function describeText(description: ComponentDescription): string {
  const lines = [
    `${description.kind} ${description.displayName ?? description.name} (domain ${description.domain}, graph version ${description.graphVersion})`,
    `state: ${description.state}`,
  ];
  const error = description.transientError;
  if (error !== null) lines.push(`transient error: ${error.code}: ${error.message} (since ${error.since})`);
  if (description.backoffMs !== null) lines.push(`backoff: ${description.backoffMs} ms`);
  lines.push('metrics:', ...entries(description.metrics));
  const details = entries(description.details);
  if (details.length > 0) lines.push('details:', ...details);
  return lines.join('\n');
}

function entries(values: Record<string, unknown>): string[] {
  return Object.entries(values).map(([key, value]) => `  ${key}: ${show(value)}`);
}

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(show).join(', ');
  return JSON.stringify(value);
}
