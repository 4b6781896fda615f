import { httpIngestor, object, route, table } from '../../test/fixtures/compile-cases.js';

const ING = 'HttpIngestor/orders-in';

describe('check-routes: routes against their target relay', () => {
  table([
    {
      name: 'a valid route with INHERIT ALL and SET lands in the graph',
      statements: httpIngestor('orders_in', 'orders_json', route('orders', "INHERIT ALL SET note = 'n'")),
      expect: [],
      inGraph: ['httpIngestors/orders-in'],
    },
    {
      name: 'SET to a field the target schema lacks',
      statements: httpIngestor('orders_in', 'orders_json', route('orders', "INHERIT ALL SET nope = 'x'")),
      expect: [
        {
          code: 'SR2003',
          object: ING,
          path: 'spec.routes[0].set[0].field',
          message: 'has no field nope; its fields are order_id, amount, note',
        },
      ],
    },
    {
      name: 'a required field neither set nor inherited',
      statements: httpIngestor('orders_in', 'orders_json', route('orders', 'SET order_id = input.order_id')),
      expect: [
        {
          code: 'SR2004',
          object: ING,
          path: 'spec.routes[0]',
          message: 'leaves field amount (I64) of relay orders unassigned',
        },
      ],
    },
    {
      name: 'INHERIT ALL of a same-named field with another type',
      statements: `CREATE SCHEMA other (order_id I64, amount I64);
        CREATE RELAY other SCHEMA other UNBRANCHED;
        ${httpIngestor('orders_in', 'orders_json', route('other', 'INHERIT ALL'))}`,
      expect: [
        {
          code: 'SR2002',
          object: ING,
          path: 'spec.routes[0].inheritAll',
          message: 'copies input.order_id (STRING) into field order_id of relay other, which is I64',
        },
        { code: 'SR2004', object: ING, path: 'spec.routes[0]', message: 'leaves field order_id' },
      ],
    },
    {
      name: 'a value of the wrong type',
      statements: httpIngestor(
        'orders_in',
        'orders_json',
        route('orders', 'INHERIT ALL SET amount = input.order_id'),
      ),
      expect: [
        {
          code: 'SR2005',
          object: ING,
          path: 'spec.routes[0].set[0].value',
          message: 'the value is STRING, but field amount of relay orders is I64',
        },
      ],
    },
    {
      name: 'integer constants are range-checked, also negated ones and those whose type already matches',
      statements: `CREATE SCHEMA ints (small U8, wide U64, signed I64);
        CREATE RELAY ints SCHEMA ints UNBRANCHED;
        ${httpIngestor('orders_in', 'orders_json', route('ints', 'SET small = 300, wide = -1, signed = -18446744073709551615'))}`,
      expect: [
        {
          code: 'SR2005',
          object: ING,
          path: 'spec.routes[0].set[0].value',
          message: 'the value 300 does not fit field small of relay ints, which is U8',
        },
        {
          code: 'SR2005',
          object: ING,
          path: 'spec.routes[0].set[1].value',
          message: 'the value -1 does not fit field wide of relay ints, which is U64',
        },
        {
          code: 'SR2005',
          object: ING,
          path: 'spec.routes[0].set[2].value',
          message: '-18446744073709551615 is beyond I64',
        },
      ],
    },
    {
      name: 'a possibly-null value into a field that is not OPTIONAL; coalesce fixes it',
      statements: `${httpIngestor('orders_in', 'orders_json', route('orders', 'INHERIT ALL SET order_id = input.note'))}
        ${httpIngestor('fixed_in', 'orders_json', route('orders', "INHERIT ALL SET order_id = coalesce(input.note, 'none')"), 'second_ep')}
        CREATE ENDPOINT second_ep ON shop PATH '/second' TYPE HTTP;`,
      expect: [
        { code: 'SR2007', object: ING, path: 'spec.routes[0].set[0].value', message: 'wrap it in coalesce' },
      ],
      inGraph: ['httpIngestors/fixed-in'],
    },
    {
      name: 'NULL literal into a required field',
      statements: httpIngestor('orders_in', 'orders_json', route('orders', 'INHERIT ALL SET amount = NULL')),
      expect: [{ code: 'SR2007', object: ING, path: 'spec.routes[0].set[0].value', message: 'may be null' }],
    },
    {
      name: 'output. reads fields assigned earlier in the same route, not later ones',
      statements: httpIngestor(
        'orders_in',
        'orders_json',
        route(
          'orders',
          'SET order_id = input.order_id, amount = length(output.order_id), note = output.note',
        ),
      ),
      expect: [
        {
          code: 'SR2003',
          object: ING,
          path: 'spec.routes[0].set[2].value',
          message: 'output.note: output (the fields assigned so far) has no field note',
        },
      ],
    },
    {
      name: 'an error handler reads error. and input. (nullable) and must fill its relay',
      statements: `CREATE SCHEMA errs (code STRING, message STRING, order_id STRING);
        CREATE RELAY errs SCHEMA errs UNBRANCHED;
        ${httpIngestor('orders_in', 'orders_json', route('orders', 'INHERIT ALL', 'SEND TO errs SET code = error.code, order_id = input.order_id'))}`,
      expect: [
        {
          code: 'SR2007',
          object: ING,
          path: 'spec.routes[0].onMessageError.set[1].value',
          message: 'may be null',
        },
        {
          code: 'SR2004',
          object: ING,
          path: 'spec.routes[0].onMessageError',
          message: 'leaves field message (STRING) of relay errs unassigned',
        },
      ],
    },
    {
      name: 'a handler INHERIT ALL copies nullable input fields into required ones',
      statements: `CREATE SCHEMA errs (code STRING, order_id STRING);
        CREATE RELAY errs SCHEMA errs UNBRANCHED;
        ${httpIngestor('orders_in', 'orders_json', route('orders', 'INHERIT ALL', 'SEND TO errs INHERIT ALL SET code = error.code'))}`,
      expect: [
        {
          code: 'SR2007',
          object: ING,
          path: 'spec.routes[0].onMessageError.inheritAll',
          message: 'INHERIT ALL copies input.order_id, which may be null',
        },
      ],
    },
    {
      name: 'expression problems: unknown scope, function, arity',
      statements: httpIngestor(
        'orders_in',
        'orders_json',
        route(
          'orders',
          'INHERIT ALL SET note = left.x, order_id = shout(input.order_id), amount = abs(1, 2)',
        ),
      ),
      expect: [
        {
          code: 'SR2008',
          object: ING,
          path: 'spec.routes[0].set[0].value',
          message: 'the left. scope is not available here',
        },
        {
          code: 'SR2006',
          object: ING,
          path: 'spec.routes[0].set[1].value',
          message: 'unknown function shout()',
        },
        {
          code: 'SR2006',
          object: ING,
          path: 'spec.routes[0].set[2].value',
          message: 'abs() takes 1 argument, not 2',
        },
      ],
    },
    {
      name: 'syslog metadata.peer_addr is a nullable STRING; HTTP metadata has host and path',
      statements: `CREATE SCHEMA ev (message STRING, peer STRING, host STRING);
        CREATE RELAY ev SCHEMA ev UNBRANCHED;
        CREATE SYSLOG LISTENER INGESTOR sys_in FROM udp_in MODE NO ACK ON QUIESCE DROP DECODE USING syslog
          ${route('ev', 'INHERIT ALL SET peer = metadata.peer_addr, host = metadata.host')} ON GENERAL ERROR LOG;
        ${httpIngestor('orders_in', 'orders_json', route('ev', "SET message = 'm', peer = metadata.path, host = metadata.host"))}`,
      expect: [
        {
          code: 'SR2007',
          object: 'SyslogIngestor/sys-in',
          path: 'spec.routes[0].set[0].value',
          message: 'may be null',
        },
        {
          code: 'SR2003',
          object: 'SyslogIngestor/sys-in',
          path: 'spec.routes[0].set[1].value',
          message: 'metadata of a syslog message has no field host; it has peer_addr',
        },
      ],
      inGraph: ['httpIngestors/orders-in'],
    },
    {
      name: 'an expression that does not parse (resource YAML holds raw text)',
      objects: [
        object('HttpIngestor', 'raw-in', {
          endpoint: 'orders-ep',
          mode: 'NO_ACK',
          quiesce: { action: 'DROP' },
          codec: 'orders-json',
          routes: [
            {
              to: 'orders',
              inheritAll: true,
              set: [{ field: 'note', value: 'lower(input.' }],
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
          code: 'SR1015',
          object: 'HttpIngestor/raw-in',
          path: 'spec.routes[0].set[0].value',
          message: 'SET note: the expression does not parse',
        },
      ],
    },
    {
      name: 'one bad route does not hide another ingestor’s problem, and unrelated objects stay',
      statements: `${httpIngestor('orders_in', 'orders_json', route('orders', 'INHERIT ALL SET amount = input.order_id'))}
        CREATE ENDPOINT second_ep ON shop PATH '/second' TYPE HTTP;
        ${httpIngestor('second_in', 'orders_json', route('orders', 'SET order_id = input.order_id'), 'second_ep')}`,
      expect: [
        { code: 'SR2005', object: ING, path: 'spec.routes[0].set[0].value', message: 'is I64' },
        { code: 'SR2004', object: 'HttpIngestor/second-in', path: 'spec.routes[0]', message: 'amount' },
      ],
      inGraph: ['relays/orders', 'codecs/orders-json', 'relays/lines'],
    },
  ]);
});
