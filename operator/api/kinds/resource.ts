// Resource: a named set of files uploaded in immutable versions (docs/language.md, "Resources").
import { int, list, object, oneOf, optional, statusProperties, str } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind } from '../kind.js';

const uploadedVersion = object(
  {
    version: int('Version number, from 1.', { minimum: 1 }),
    objectKind: oneOf(
      ['ConfigMap', 'Secret'] as const,
      'Where the files are stored; Secret when any holds a private key or a password.',
    ),
    objectName: str('Name of the immutable object holding the files.'),
    files: list(str('A path inside the version.'), 'Files of this version.'),
    sha256: str('Digest over the files, for integrity.'),
    uploadedAt: str('When the upload completed.', { format: 'date-time' }),
  },
  'One completed upload.',
);

export const resourceKind = defineKind({
  kind: 'Resource',
  plural: 'resources',
  singular: 'resource',
  shortNames: ['srres'],
  description: 'CREATE RESOURCE: files (such as .proto definitions or TLS material) uploaded in versions.',
  spec: object({}, 'A resource has no settings; its files arrive with UPLOAD RESOURCE.'),
  status: object(
    {
      ...statusProperties,
      latestVersion: optional(int('Highest completed version.', { minimum: 1 })),
      versions: optional(list(uploadedVersion, 'Completed uploads, oldest first.')),
    },
    'Uploaded versions.',
  ),
  printerColumns: [
    { name: 'Latest', type: 'integer', jsonPath: '.status.latestVersion' },
    acceptedColumn,
    ageColumn,
  ],
});
