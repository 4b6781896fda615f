import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  DisplayNames,
  displayName,
  identifierAnnotationProblem,
  identifierOf,
  nameFromEither,
  statementIdentifier,
} from './display-names.js';
import { identifierToName } from './names.js';

const made = (name: string, identifier?: unknown) => ({
  kind: 'Relay',
  metadata:
    identifier === undefined ? { name } : { name, annotations: { 'streamroute.io/identifier': identifier } },
});

describe('display names (decision 0025)', () => {
  it('an object a statement made is shown as typed; one from YAML by its resource name', () => {
    assert.equal(displayName(made('orders-in', 'Orders_In')), 'Orders_In');
    assert.equal(displayName(made('orders-in')), 'orders-in');
    assert.equal(identifierOf(made('orders-in')), 'orders_in');
    assert.equal(identifierOf(made('orders-in', 'ORDERS_IN')), 'ORDERS_IN');
  });

  it('an annotation that does not name its object is ignored, and says why', () => {
    for (const [written, why] of [
      ['Other_Name', 'it is the identifier of other-name'],
      ['orders-in', 'an identifier starts with a letter'],
      ['orders_in_', 'an identifier cannot end with _'],
    ] as const) {
      const object = made('orders-in', written);
      assert.equal(statementIdentifier(object), undefined, written);
      assert.equal(displayName(object), 'orders-in');
      assert.match(
        identifierAnnotationProblem(object) ?? '',
        new RegExp(`does not name orders-in \\(${why}`),
      );
    }
    assert.match(identifierAnnotationProblem(made('orders-in', 7)) ?? '', /must be a string/);
    assert.equal(identifierAnnotationProblem(made('orders-in', 'Orders_In')), undefined);
    assert.equal(identifierAnnotationProblem(made('orders-in')), undefined);
  });

  it('one name per object, whatever spelling refers to it; a reference to nothing as its referrer writes it', () => {
    const names = new DisplayNames([made('orders-in', 'Orders_In'), made('audit')]);
    assert.equal(names.of('Relay', 'orders-in'), 'Orders_In');
    assert.equal(names.of('Relay', 'audit'), 'audit');
    assert.equal(names.of('Schema', 'orders-in'), 'orders-in', 'kinds are separate');
    assert.equal(names.of('Schema', 'no-such-schema', made('pays', 'Pays')), 'no_such_schema');
    assert.equal(names.of('Schema', 'no-such-schema', made('pays')), 'no-such-schema');
    assert.equal(names.identifier('Relay', 'orders-in'), 'Orders_In');
    assert.equal(names.identifier('Relay', 'audit-log'), 'audit_log');
  });

  it('property: a command takes the identifier in any case or the resource name, for the same object', () => {
    const identifier = fc
      .array(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,5}$/), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join('_'));
    fc.assert(
      fc.property(identifier, (id) => {
        const mapped = identifierToName(id);
        if (!mapped.ok) return;
        assert.deepEqual(nameFromEither(id), mapped);
        assert.deepEqual(nameFromEither(id.toUpperCase()), mapped);
        assert.deepEqual(nameFromEither(mapped.name), mapped);
      }),
    );
    for (const bad of ['orders_', '9orders', 'orders-', '-orders', 'or ders', ''])
      assert.equal(nameFromEither(bad).ok, false, bad);
  });
});
