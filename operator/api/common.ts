// Pieces shared by several kinds: references, literals, routes, error policies, quiesce, status.
import {
  bool,
  int,
  intOrString,
  list,
  object,
  oneOf,
  optional,
  rules,
  str,
  type ObjectOf,
  type Schema,
  type TypeOf,
} from './openapi.js';

export const GROUP = 'streamroute.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** A Kubernetes object name as produced from a statement identifier (see names.ts). */
export const NAME_PATTERN = '^[a-z][a-z0-9-]*[a-z0-9]$|^[a-z]$';
/** Field names keep their case, like JSON keys. */
export const FIELD_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
export const DURATION_PATTERN = '^[1-9][0-9]*(ms|s|m|h)$';
export const SIZE_PATTERN = '^[1-9][0-9]*(B|KB|MB|GB|KiB|MiB|GiB)?$';

export const ref = (what: string): Schema<string> =>
  str(`Name of the ${what} in the same namespace.`, { pattern: NAME_PATTERN, maxLength: 63 });

export const fieldName = (description: string): Schema<string> =>
  str(description, { pattern: FIELD_PATTERN, maxLength: 128 });

export const duration = (description: string): Schema<string> =>
  str(`${description} A positive number and a unit: ms, s, m or h (for example 30s).`, {
    pattern: DURATION_PATTERN,
  });

export const size = (description: string): Schema<string> =>
  str(
    `${description} A number of bytes, optionally with a unit: B, KB, MB, GB, KiB, MiB, GiB (for example 1MiB).`,
    {
      pattern: SIZE_PATTERN,
    },
  );

export const expression = (description: string): Schema<string> =>
  str(`${description} An expression in the statement language (docs/language.md#expressions).`, {
    minLength: 1,
    maxLength: 4096,
  });

/**
 * A resource version: a number from 1, or LATEST (bound to a number when applied; docs/language.md,
 * "Resources").
 */
export const resourceVersionRef = object(
  {
    resource: ref('Resource'),
    version: rules(intOrString('An uploaded version number (1, 2, …) or LATEST.'), [
      {
        rule: "type(self) == int ? self >= 1 && self <= 2147483647 : self == 'LATEST'",
        holds: (self) => (typeof self === 'number' ? self >= 1 && self <= 2147483647 : self === 'LATEST'),
        message: 'version must be a number from 1 to 2147483647, or LATEST',
      },
    ]),
  },
  'A version of an uploaded Resource.',
);
export type ResourceVersionRef = TypeOf<typeof resourceVersionRef>;

export const assignment = object(
  {
    field: fieldName('The target field being assigned.'),
    value: expression('The value.'),
  },
  'One SET assignment: field = expression.',
);
export type Assignment = TypeOf<typeof assignment>;

const assignments = list(assignment, 'SET assignments, applied in order.', { minItems: 1, maxItems: 256 });

export const messageErrorPolicy = rules(
  object(
    {
      action: oneOf(
        ['LOG', 'SEND_TO'] as const,
        'LOG logs the failed record; SEND_TO routes an error record.',
      ),
      relay: optional(ref('Relay receiving error records')),
      inheritAll: optional(bool('Copy same-named fields of the failed input into the error record.')),
      set: optional(assignments),
    },
    'ON MESSAGE ERROR: what happens to a record that fails.',
  ),
  [
    {
      rule: "self.action == 'SEND_TO' ? has(self.relay) : true",
      message: 'SEND_TO needs a relay',
      fieldPath: '.relay',
      holds: (self) => self.action !== 'SEND_TO' || self.relay !== undefined,
    },
    {
      rule: "self.action == 'LOG' ? !has(self.relay) && !has(self.inheritAll) && !has(self.set) : true",
      message: 'relay, inheritAll and set are only allowed with SEND_TO',
      holds: (self) =>
        self.action !== 'LOG' ||
        (self.relay === undefined && self.inheritAll === undefined && self.set === undefined),
    },
  ],
);
export type MessageErrorPolicy = TypeOf<typeof messageErrorPolicy>;

const routeProperties = {
  to: ref('Relay the route writes to'),
  inheritAll: optional(bool('INHERIT ALL: copy same-named fields of the input before the SET assignments.')),
  set: optional(assignments),
  branching: oneOf(['UNBRANCHED'] as const, 'Branch construction; only UNBRANCHED is supported.'),
  flush: oneOf(['IMMEDIATE'] as const, 'Flush policy; only IMMEDIATE is supported.'),
  onMessageError: messageErrorPolicy,
};
export type Route = ObjectOf<typeof routeProperties>;

export const route = rules(object(routeProperties, 'A route: TO <relay> INHERIT ALL | SET …'), [
  {
    rule: 'has(self.inheritAll) && self.inheritAll || has(self.set) && size(self.set) > 0',
    message: 'a route needs INHERIT ALL or at least one SET assignment',
    holds: (self) => self.inheritAll === true || (self.set?.length ?? 0) > 0,
  },
]);

/** The routes of a kind, each item checked against `item` (the route, or a kind's narrower route). */
export const routeList = (item: Schema<Route>): Schema<Route[]> =>
  list(item, 'Routes, each sending every record to one relay.', { minItems: 1, maxItems: 64 });

export const routes = routeList(route);

export const quiesce = rules(
  object(
    {
      action: oneOf(['SUSPEND', 'BUFFER', 'DROP'] as const, 'What the ingestor does while it is quiesced.'),
      maxSize: optional(size('BUFFER MAX SIZE: bytes buffered while quiesced.')),
      onOverflow: optional(oneOf(['DROP_OLDEST', 'DROP_NEWEST'] as const, 'What a full buffer drops.')),
    },
    'ON QUIESCE policy.',
  ),
  [
    {
      rule: "self.action == 'BUFFER' ? has(self.maxSize) : true",
      message: 'BUFFER needs MAX SIZE',
      fieldPath: '.maxSize',
      holds: (self) => self.action !== 'BUFFER' || self.maxSize !== undefined,
    },
    {
      rule: "self.action != 'BUFFER' ? !has(self.maxSize) && !has(self.onOverflow) : true",
      message: 'maxSize and onOverflow are only allowed with BUFFER',
      holds: (self) =>
        self.action === 'BUFFER' || (self.maxSize === undefined && self.onOverflow === undefined),
    },
  ],
);
export type Quiesce = TypeOf<typeof quiesce>;

export const ingestMode = oneOf(
  ['NO_ACK'] as const,
  'Delivery mode; only NO_ACK (no acknowledgement) is supported.',
);
export const generalErrorPolicy = oneOf(['LOG'] as const, 'ON GENERAL ERROR policy; only LOG is supported.');

const condition = object(
  {
    type: str('Condition type: Accepted or Ready.', { maxLength: 316 }),
    status: oneOf(['True', 'False', 'Unknown'] as const, 'Condition status.'),
    observedGeneration: optional(int('Generation the condition was computed from.', { minimum: 0 })),
    lastTransitionTime: str('When the status last changed.', { format: 'date-time' }),
    reason: str('Machine-readable reason (a diagnostic code when not accepted).', { maxLength: 1024 }),
    message: str('Human-readable message.', { maxLength: 32768 }),
  },
  'A metav1.Condition.',
);

export const statusProperties = {
  observedGeneration: optional(int('Generation the status was computed from.', { minimum: 0 })),
  conditions: optional(
    list(condition, 'Accepted, and for ingestors and emitters Ready.', {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    }),
  ),
};
