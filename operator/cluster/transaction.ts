// The annotations every object of a `BEGIN … COMMIT` batch carries on a cluster (decision 0015): the
// batch's random id, how many objects it applies, and which (`Kind/name,…`). The operator compiles the
// domain only once it has seen every member. Drops of a batch are applied after its applies.
import { randomUUID } from 'node:crypto';
import type { GraphObject } from '../api/index.js';
import {
  ANNOTATION_TRANSACTION,
  ANNOTATION_TRANSACTION_MEMBERS,
  ANNOTATION_TRANSACTION_SIZE,
} from '../../dataplane/kube/contract.js';
import { idOf } from './cluster-objects.js';

/** The objects with the transaction annotations added (copies); `id` defaults to a random UUID. */
export function withTransaction(objects: readonly GraphObject[], id: string = randomUUID()): GraphObject[] {
  const annotations = {
    [ANNOTATION_TRANSACTION]: id,
    [ANNOTATION_TRANSACTION_SIZE]: String(objects.length),
    [ANNOTATION_TRANSACTION_MEMBERS]: objects.map(idOf).join(','),
  };
  return objects.map((object) => {
    const copy = structuredClone(object);
    copy.metadata.annotations = { ...copy.metadata.annotations, ...annotations };
    return copy;
  });
}

/** An object without the transaction annotations (what it says once applied outside a batch). */
export function withoutTransaction(object: GraphObject): GraphObject {
  const copy = structuredClone(object);
  const annotations = { ...copy.metadata.annotations };
  for (const key of [ANNOTATION_TRANSACTION, ANNOTATION_TRANSACTION_SIZE, ANNOTATION_TRANSACTION_MEMBERS]) {
    delete annotations[key];
  }
  if (Object.keys(annotations).length === 0) delete copy.metadata.annotations;
  else copy.metadata.annotations = annotations;
  return copy;
}
