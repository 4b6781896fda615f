import assert from 'node:assert/strict';
import type { ProtobufDescriptor } from '../../graph/types.js';
import { loadMessage } from './load-message.js';
import { descriptorOf } from './testdata/test-messages.js';

function loadError(descriptor: ProtobufDescriptor, message: string): string {
  const loaded = loadMessage(descriptor, message);
  assert.ok('error' in loaded, 'expected an error');
  return loaded.error;
}

describe('loading the protobuf message of a codec', () => {
  it('loads a message from Root.toJSON() by its fully qualified name, with imported types', () => {
    const loaded = loadMessage(descriptorOf('kitchen.proto'), 'streamroute.test.v1.Kitchen');
    assert.ok('type' in loaded);
    assert.equal(loaded.type.fullName, '.streamroute.test.v1.Kitchen');
    assert.equal(loaded.type.fields.total?.resolvedType?.fullName, '.common.v1.Money');
  });

  it('loads the example messages', () => {
    const descriptor = descriptorOf('orders/v1/order.proto');
    assert.ok('type' in loadMessage(descriptor, 'orders.v1.Order'));
    assert.ok('type' in loadMessage(descriptor, 'orders.v1.Refund'));
  });

  it('refuses a message the descriptor does not have', () => {
    assert.equal(
      loadError(descriptorOf('kitchen.proto'), 'streamroute.test.v1.Pantry'),
      'the protobuf descriptor has no message streamroute.test.v1.Pantry',
    );
  });

  it('refuses a name that is not fully qualified', () => {
    assert.equal(
      loadError(descriptorOf('kitchen.proto'), 'v1.Kitchen'),
      'the protobuf descriptor has no message v1.Kitchen (did you mean streamroute.test.v1.Kitchen?)',
    );
  });

  it('refuses an enum or a package', () => {
    assert.equal(
      loadError(descriptorOf('kitchen.proto'), 'streamroute.test.shared.Status'),
      'streamroute.test.shared.Status in the protobuf descriptor is not a message',
    );
    assert.match(loadError(descriptorOf('kitchen.proto'), 'streamroute.test'), /is not a message$/);
  });

  it('refuses a descriptor whose types do not resolve', () => {
    const descriptor = { nested: { p: { nested: { M: { fields: { x: { type: 'Missing', id: 1 } } } } } } };
    assert.match(loadError(descriptor, 'p.M'), /^the protobuf descriptor does not load: .*Missing/);
  });

  it('refuses a descriptor that is not one', () => {
    const descriptor = { nested: { M: { fields: { x: { type: 'int32', id: -1 } } } } };
    assert.match(loadError(descriptor, 'M'), /^the protobuf descriptor does not load: id must be/);
  });

  it('refuses a message with a proto2 group, which the view cannot carry', () => {
    const descriptor: ProtobufDescriptor = {
      nested: {
        g: {
          nested: {
            M: {
              edition: 'proto2',
              fields: { g: { type: 'G', id: 1 } },
              nested: { G: { fields: { a: { type: 'int32', id: 2 } }, group: true } },
            },
          },
        },
      },
    };
    assert.equal(
      loadError(descriptor, 'g.M'),
      'message g.M: field g of message g.M is a group, which the JSON view does not carry',
    );
  });
});
