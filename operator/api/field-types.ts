export { FIELD_TYPES, type FieldType } from '../../dataplane/graph/field-types.js';
