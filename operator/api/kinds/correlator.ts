// Correlator: joins a left and a right relay on a predicate (docs/correlator.md; docs/language.md,
// "Correlators").
import { duration, expression, int, object, oneOf, optional, ref, route, routeList, rules } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const DEFAULT_MAX_PENDING = 100000;

const timeoutAction = (side: string) =>
  rules(
    object(
      {
        action: oneOf(
          ['DROP', 'SEND_TO'] as const,
          `What happens to an unmatched ${side} record after MAX TIME.`,
        ),
        relay: optional(ref('Relay receiving the original record')),
      },
      `Timeout action for the ${side} side.`,
    ),
    [
      {
        rule: "self.action == 'SEND_TO' ? has(self.relay) : !has(self.relay)",
        message: 'relay is required with SEND_TO and not allowed with DROP',
        holds: (self) => (self.action === 'SEND_TO') === (self.relay !== undefined),
        fieldPath: '.relay',
      },
    ],
  );

/**
 * Correlator routes are set-only (docs/language.md, "Correlators"): INHERIT is rejected at the route that
 * writes it.
 */
const correlatorRoute = rules(route, [
  {
    rule: '!has(self.inheritAll) || !self.inheritAll',
    message: 'correlator routes are SET-only: INHERIT is rejected',
    code: 'SR2020',
    holds: (self) => self.inheritAll !== true,
    fieldPath: '.inheritAll',
  },
]);

export const correlatorKind = defineKind({
  kind: 'Correlator',
  plural: 'correlators',
  singular: 'correlator',
  shortNames: ['corr'],
  description: 'CREATE CORRELATOR: pairs records of two relays that satisfy a predicate.',
  spec: object(
    {
      left: ref('Left relay'),
      right: ref('Right relay'),
      where: expression('CORRELATE WHERE: a boolean over left. and right.'),
      match: oneOf(['EARLIEST', 'LATEST'] as const, 'Which pending candidate an arriving record takes.'),
      maxTime: duration('MAX TIME: how long an unmatched record waits.'),
      maxPending: optional(
        int(
          `Cap on pending records per side; beyond it the oldest is dropped and counted (default ${DEFAULT_MAX_PENDING}).`,
          {
            minimum: 1,
            maximum: 100000000,
          },
        ),
      ),
      onTimeout: object(
        { left: timeoutAction('left'), right: timeoutAction('right') },
        'ON CORRELATION TIMEOUT <left action>, <right action>.',
      ),
      branching: oneOf(['UNBRANCHED'] as const, 'Branching; only UNBRANCHED is supported.'),
      routes: routeList(correlatorRoute),
    },
    'A correlator.',
  ),
  printerColumns: [
    { name: 'Left', type: 'string', jsonPath: '.spec.left' },
    { name: 'Right', type: 'string', jsonPath: '.spec.right' },
    { name: 'Match', type: 'string', jsonPath: '.spec.match' },
    { name: 'Max Time', type: 'string', jsonPath: '.spec.maxTime' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});
