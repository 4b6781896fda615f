// A SYSLOG codec's schema may declare any subset of the syslog fields, each with exactly the name, type
// and optionality of docs/codecs-syslog.md, "Fields" (SR2011). (JAQ or RFC3339 rules on a SYSLOG codec are
// SR2012, a rule of the Codec kind itself.)
import type { GraphObject } from '../api/index.js';
import { SYSLOG_FIELD_SHAPES, type SyslogField } from '../../dataplane/graph/types.js';
import { keyOf, label, type CompileContext } from './context.js';
import { shapeText } from './schema-difference.js';

const ALL_SHAPES = Object.entries(SYSLOG_FIELD_SHAPES)
  .map(([name, shape]) => `${name} ${shapeText(shape)}`)
  .join(', ');

export function isSyslogField(name: string): name is SyslogField {
  return Object.hasOwn(SYSLOG_FIELD_SHAPES, name);
}

export function checkSyslogSchema(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.from !== 'SYSLOG') continue;
    const fields = ctx.schemaFields(object.spec.schema);
    if (fields === undefined) continue;
    for (const field of fields.values()) {
      const subject = `${label(object)}: schema ${ctx.show('Schema', object.spec.schema)}`;
      if (!isSyslogField(field.name)) {
        ctx.report(
          keyOf(object),
          'SR2011',
          'spec.schema',
          `${subject} declares ${field.name}, which is not a syslog field; a SYSLOG codec's schema may declare only ${ALL_SHAPES}`,
        );
        continue;
      }
      const expected = SYSLOG_FIELD_SHAPES[field.name];
      if (expected.type === field.type && expected.optional === field.optional) continue;
      ctx.report(
        keyOf(object),
        'SR2011',
        'spec.schema',
        `${subject} declares ${field.name} ${shapeText(field)}; ${field.name} must be ${shapeText(expected)}`,
      );
    }
  }
}
