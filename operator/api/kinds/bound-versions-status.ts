// Status of kinds that name a resource version (codecs, syslog clients, vhosts): conditions plus the
// number each `VERSION LATEST` was bound to for a generation (docs/language.md, "Resources"), so later
// uploads do not move it.
import { int, list, object, optional, statusProperties, str } from '../dsl.js';

const boundVersion = object(
  {
    resource: str('The Resource.'),
    version: int('The version LATEST was bound to.', { minimum: 1 }),
    generation: int('The generation of the object the binding was made for.', { minimum: 0 }),
  },
  'One VERSION LATEST bound to a number.',
);

export const boundVersionsStatus = object(
  {
    ...statusProperties,
    boundVersions: optional(
      list(boundVersion, 'VERSION LATEST as bound by the operator for the current generation.', {
        maxItems: 16,
      }),
    ),
  },
  'Observed state, written by the operator.',
);
