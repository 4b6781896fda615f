import { table } from '../../test/fixtures/compile-cases.js';

describe('check-rfc3339: ENCODE … AS RFC3339 names a DATETIME field', () => {
  table([
    {
      name: 'a DATETIME field is fine; an unknown or non-DATETIME field is not',
      statements: `CREATE SCHEMA evt (id STRING, at DATETIME);
        CREATE CODEC good FROM JSON TO SCHEMA evt WITH JAQ TRANSFORMATIONS ON INGESTION '.' ENCODE at AS RFC3339;
        CREATE CODEC bad FROM JSON TO SCHEMA evt WITH JAQ TRANSFORMATIONS ON INGESTION '.' ENCODE id AS RFC3339, when AS RFC3339;`,
      expect: [
        {
          code: 'SR2016',
          object: 'Codec/bad',
          path: 'spec.encodeRfc3339[0]',
          message: 'needs a DATETIME field of schema evt, but id is STRING',
        },
        {
          code: 'SR2016',
          object: 'Codec/bad',
          path: 'spec.encodeRfc3339[1]',
          message: 'schema evt has no field when',
        },
      ],
      inGraph: ['codecs/good'],
    },
  ]);
});
