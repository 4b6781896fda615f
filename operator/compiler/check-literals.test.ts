import { object, table } from '../../test/fixtures/compile-cases.js';

describe('check-literals: durations and sizes the runtime can use', () => {
  table([
    {
      name: 'durations and sizes too large to hold in milliseconds or bytes',
      objects: [
        object('Emitter', 'zero', {
          from: 'lines',
          to: { type: 'SYSLOG', client: 'udp-in' },
          mode: 'NO_ACK',
          retry: { backoff: '9999999999999999h', max: '1m' },
          codec: 'syslog',
          flush: 'IMMEDIATE',
          onMessageError: { action: 'LOG' },
          onGeneralError: 'LOG',
        }),
        object('SyslogIngestor', 'tiny', {
          client: 'udp-in',
          mode: 'NO_ACK',
          quiesce: { action: 'BUFFER', maxSize: '99999999999999999GiB', onOverflow: 'DROP_OLDEST' },
          codec: 'syslog',
          routes: [
            {
              to: 'lines',
              inheritAll: true,
              branching: 'UNBRANCHED',
              flush: 'IMMEDIATE',
              onMessageError: { action: 'LOG' },
            },
          ],
          onGeneralError: 'LOG',
        }),
      ],
      expect: [
        {
          code: 'SR1003',
          object: 'Emitter/zero',
          path: 'spec.retry.backoff',
          message: 'is too large for a duration',
        },
        {
          code: 'SR1004',
          object: 'SyslogIngestor/tiny',
          path: 'spec.quiesce.maxSize',
          message: 'is too large for a size',
        },
      ],
    },
  ]);
});
