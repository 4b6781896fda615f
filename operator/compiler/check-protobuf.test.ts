import assert from 'node:assert/strict';
import { compileCase, resourceFiles, table } from '../../test/fixtures/compile-cases.js';

const ORDER = `syntax = "proto3";
package shop.v1;
import "common/money.proto";
import "google/protobuf/timestamp.proto";
message Order {
  string order_id = 1;
  int64 amount = 2;
  optional string note = 3;
  common.Money price = 4;
  repeated string tags = 5;
  google.protobuf.Timestamp at = 6;
}
message Unused { string x = 1; }
`;
const MONEY = 'syntax = "proto3"; package common; message Money { int64 units = 1; }';

const FILES = resourceFiles({
  protos: {
    1: { 'shop/order.proto': ORDER, 'shop/common/money.proto': MONEY },
    2: { 'broken.proto': 'syntax = "proto3"; message X { strin a = 1 }' },
  },
});

const codec = (name: string, version: string, [file, message]: [string, string], schema = 'orders'): string =>
  `CREATE CODEC ${name} FROM PROTOBUF USING RESOURCE protos VERSION ${version}
     CONFIG { 'file' = '${file}', 'include' = 'shop' } MESSAGE '${message}'
     TO SCHEMA ${schema} WITH JAQ TRANSFORMATIONS ON INGESTION '.';`;

describe('check-protobuf: resource version, file, imports, message and fields', () => {
  table([
    {
      name: 'a valid codec: imports resolve against include, fields match by name',
      statements: `CREATE RESOURCE protos;\n${codec('pb', '1', ['order.proto', 'shop.v1.Order'])}`,
      resources: FILES,
      expect: [],
      inGraph: ['codecs/pb'],
    },
    {
      name: 'version, file, syntax and message problems (SR2017)',
      statements: `CREATE RESOURCE protos;
        ${codec('no_version', '7', ['order.proto', 'shop.v1.Order'])}
        ${codec('no_file', '1', ['missing.proto', 'shop.v1.Order'])}
        ${codec('broken', '2', ['broken.proto', 'X'])}
        ${codec('no_message', '1', ['order.proto', 'shop.v1.Nope'])}
        ${codec('partial_name', '1', ['order.proto', 'Order'])}
        ${codec('partial_package', '1', ['order.proto', 'v1.Order'])}`,
      resources: FILES,
      expect: [
        {
          code: 'SR2017',
          object: 'Codec/no-version',
          path: 'spec.protobuf.using',
          message: 'resource protos has no version 7 (the latest is 2)',
        },
        {
          code: 'SR2017',
          object: 'Codec/no-file',
          path: 'spec.protobuf.file',
          message: 'there is no file missing.proto',
        },
        {
          code: 'SR2017',
          object: 'Codec/broken',
          path: 'spec.protobuf.file',
          message: 'broken.proto: illegal token',
        },
        {
          code: 'SR2017',
          object: 'Codec/no-message',
          path: 'spec.protobuf.message',
          message: 'defines no message shop.v1.Nope; it defines',
        },
        // protobufjs finds `Order` by its short name; MESSAGE must be the fully qualified name
        // (docs/language.md, "Codecs").
        {
          code: 'SR2017',
          object: 'Codec/partial-name',
          path: 'spec.protobuf.message',
          message: "MESSAGE 'Order' is not fully qualified; write MESSAGE 'shop.v1.Order'",
        },
        {
          code: 'SR2017',
          object: 'Codec/partial-package',
          path: 'spec.protobuf.message',
          message: "MESSAGE 'v1.Order' is not fully qualified; write MESSAGE 'shop.v1.Order'",
        },
      ],
    },
    {
      name: 'LATEST with nothing uploaded, and files not given to the compiler',
      statements: `CREATE RESOURCE protos; CREATE RESOURCE other;
        ${codec('latest', 'LATEST', ['order.proto', 'shop.v1.Order'])}`,
      expect: [
        {
          code: 'SR2017',
          object: 'Codec/latest',
          path: 'spec.protobuf.using',
          message: 'VERSION LATEST cannot be bound',
        },
      ],
    },
    {
      name: 'schema fields that the message lacks or cannot carry (SR2018)',
      statements: `CREATE RESOURCE protos;
        CREATE SCHEMA wide (order_id I64, price I64, tags STRING, at DATETIME OPTIONAL, missing STRING OPTIONAL, note STRING OPTIONAL);
        ${codec('pb', '1', ['order.proto', 'shop.v1.Order'], 'wide')}`,
      resources: FILES,
      expect: [
        {
          code: 'SR2018',
          object: 'Codec/pb',
          path: 'spec.protobuf.message',
          message: 'field order_id is string, which cannot carry schema field order_id (I64)',
        },
        {
          code: 'SR2018',
          object: 'Codec/pb',
          path: 'spec.protobuf.message',
          message: 'field price is common.Money',
        },
        {
          code: 'SR2018',
          object: 'Codec/pb',
          path: 'spec.protobuf.message',
          message: 'field tags is repeated',
        },
        {
          code: 'SR2018',
          object: 'Codec/pb',
          path: 'spec.protobuf.message',
          message: 'field at is google.protobuf.Timestamp',
        },
        {
          code: 'SR2018',
          object: 'Codec/pb',
          path: 'spec.protobuf.message',
          message: 'schema field missing is not a field of message shop.v1.Order',
        },
      ],
    },
  ]);

  it('the descriptor is pruned to the message and what it uses, and loads in protobufjs', async () => {
    const result = compileCase({
      statements: `CREATE RESOURCE protos;
        CREATE SCHEMA small (order_id STRING, note STRING OPTIONAL);
        ${codec('pb', '1', ['order.proto', 'shop.v1.Order'], 'small')}`,
      resources: FILES,
    });
    assert.deepEqual(result.diagnostics, []);
    const codecEntry = result.graph.codecs.pb;
    assert.equal(codecEntry?.kind, 'protobuf');
    if (codecEntry?.kind !== 'protobuf') return;
    const text = JSON.stringify(codecEntry.descriptor);
    assert.ok(text.includes('Money') && text.includes('Timestamp') && !text.includes('Unused'), text);
    const { default: protobuf } = await import('protobufjs');
    const type = protobuf.Root.fromJSON(codecEntry.descriptor).lookupType(codecEntry.message);
    assert.deepEqual(
      type.fieldsArray.map((field) => field.name),
      ['order_id', 'amount', 'note', 'price', 'tags', 'at'],
    );
  });
});
