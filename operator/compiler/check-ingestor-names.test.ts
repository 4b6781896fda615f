import { httpIngestor, route, table } from '../../test/fixtures/compile-cases.js';

describe('check-ingestor-names: names unique across HTTP and syslog ingestors', () => {
  table([
    {
      name: 'an HTTP and a syslog ingestor with one name: the first keeps it',
      statements: `${httpIngestor('intake', 'orders_json', route('orders', 'INHERIT ALL'))}
        CREATE SYSLOG LISTENER INGESTOR intake FROM udp_in MODE NO ACK ON QUIESCE DROP DECODE USING syslog
          TO lines INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
      expect: [
        {
          code: 'SR2060',
          object: 'SyslogIngestor/intake',
          path: 'metadata.name',
          message: 'has the name of HttpIngestor intake',
        },
      ],
      inGraph: ['httpIngestors/intake'],
    },
  ]);
});
