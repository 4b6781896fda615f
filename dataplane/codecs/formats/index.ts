// The payload formats of the JAQ codecs (docs/codec-formats.md), by the name CREATE CODEC … FROM <format>
// uses. Each format's JSON view, decisions and limits: docs/codec-formats.md.
import type { JaqFormat } from '../../graph/types.js';
import { cborFormat } from './cbor-format.js';
import { jsonFormat } from './json-format.js';
import type { PayloadFormat } from './payload-format.js';
import { tomlFormat } from './toml-format.js';
import { xmlFormat } from './xml-format.js';
import { yamlFormat } from './yaml-format.js';

export type { PayloadFormat, ReadResult, ValuesResult, WriteResult } from './payload-format.js';
export { MAX_DEPTH } from './format-limits.js';

export const PAYLOAD_FORMATS: Record<JaqFormat, PayloadFormat> = {
  JSON: jsonFormat,
  YAML: yamlFormat,
  TOML: tomlFormat,
  XML: xmlFormat,
  CBOR: cborFormat,
};
