// SyslogIngestor: a syslog listener on every node, decoding frames and routing records (docs/language.md,
// "Syslog listener ingestors"; docs/syslog-wire.md, "Listeners").
import { generalErrorPolicy, ingestMode, object, quiesce, ref, routes, rules } from '../dsl.js';
import { defineKind } from '../kind.js';
import { runtimeColumns, runtimeStatus } from './ingestor-status.js';

export const syslogIngestorKind = defineKind({
  kind: 'SyslogIngestor',
  plural: 'syslogingestors',
  singular: 'syslogingestor',
  shortNames: ['sing'],
  description: 'CREATE SYSLOG LISTENER INGESTOR: listens on a syslog client address on every node.',
  spec: object(
    {
      client: ref('SyslogClient whose addr is bound'),
      mode: ingestMode,
      quiesce: rules(quiesce, [
        {
          rule: "self.action != 'BUFFER' || has(self.onOverflow)",
          message: 'BUFFER needs ON OVERFLOW DROP OLDEST or DROP NEWEST',
          holds: (self) => self.action !== 'BUFFER' || self.onOverflow !== undefined,
          fieldPath: '.onOverflow',
        },
      ]),
      codec: ref('Codec that decodes each frame'),
      routes,
      onGeneralError: generalErrorPolicy,
    },
    'A syslog listener ingestor.',
  ),
  status: runtimeStatus,
  printerColumns: [
    { name: 'Client', type: 'string', jsonPath: '.spec.client' },
    { name: 'Codec', type: 'string', jsonPath: '.spec.codec' },
    ...runtimeColumns,
  ],
});
