// Types one expression tree against the scopes of the place it is written in: fills `type` and `nullable`
// on every node and collects every problem (unknown scope or field, operand types, functions).
import type { Expr, ExprSpan, Scope } from '../../dataplane/graph/expression.js';
import type { FieldType } from '../../dataplane/graph/field-types.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { describeArity, functionSpec } from './expression-functions.js';
import { comparisonProblem, fitsInteger, isNumeric, numericJoin, type Typing } from './expression-types.js';

export interface ScopeField {
  type: FieldType;
  nullable: boolean;
  sensitive: boolean;
}

export interface ScopeFields {
  /** For messages: `input (schema order of codec order-json)`. */
  what: string;
  fields: ReadonlyMap<string, ScopeField>;
}

export type Scopes = Partial<Record<Scope, ScopeFields>>;

export interface TypeProblem {
  code: DiagnosticCode;
  message: string;
  span?: ExprSpan;
}

export interface TypedExpression {
  expr: Expr;
  typing: Typing;
  problems: TypeProblem[];
  /** Every field read, as `scope.name` (for sensitivity). */
  reads: { scope: Scope; name: string }[];
}

/** `poisoned`: an operand already had a problem, so checks above it stay quiet instead of repeating it. */
type Typed = { expr: Expr; typing: Typing; poisoned?: boolean };

const BOOL: Typing = { type: 'BOOL', nullable: false };
const I64_MIN = -(2n ** 63n);

export function typeExpression(expr: Expr, scopes: Scopes): TypedExpression {
  const walker = new Walker(scopes);
  const { expr: typed, typing } = walker.visit(expr);
  return { expr: typed, typing, problems: walker.problems, reads: walker.reads };
}

class Walker {
  readonly problems: TypeProblem[] = [];
  readonly reads: { scope: Scope; name: string }[] = [];

  constructor(private readonly scopes: Scopes) {}

  visit(expr: Expr): Typed {
    switch (expr.kind) {
      case 'literal':
        return this.literal(expr);
      case 'field':
        return this.field(expr);
      case 'unary':
        return this.unary(expr);
      case 'binary':
        return this.binary(expr);
      case 'is-null': {
        const operand = this.visit(expr.operand);
        const node = { ...expr, operand: operand.expr };
        return operand.poisoned === true ? this.poisoned(node) : this.typed(node, { ...BOOL });
      }
      case 'call':
        return this.call(expr);
    }
  }

  private typed<E extends Expr>(expr: E, typing: Typing): Typed {
    return { expr: { ...expr, type: typing.type, nullable: typing.nullable }, typing };
  }

  private problem(code: DiagnosticCode, message: string, at: Expr): void {
    this.problems.push(at.span ? { code, message, span: at.span } : { code, message });
  }

  /** A node whose own type is unknown because of a problem already reported. */
  private poisoned<E extends Expr>(expr: E): Typed {
    return { ...this.typed(expr, { type: 'NULL', nullable: true }), poisoned: true };
  }

  private literal(expr: Extract<Expr, { kind: 'literal' }>): Typed {
    switch (expr.literal) {
      case 'STRING':
        return this.typed(expr, { type: 'STRING', nullable: false });
      case 'BOOL':
        return this.typed(expr, { type: 'BOOL', nullable: false });
      case 'FLOAT':
        return this.typed(expr, { type: 'F64', nullable: false });
      case 'NULL':
        return this.typed(expr, { type: 'NULL', nullable: true });
      case 'INTEGER': {
        const value = BigInt(String(expr.value));
        const type: FieldType = fitsInteger(value, 'I64') ? 'I64' : 'U64';
        if (!fitsInteger(value, type)) this.problem('SR2005', `${String(expr.value)} is beyond U64`, expr);
        return this.typed(expr, { type, nullable: false, constant: value });
      }
    }
  }

  private field(expr: Extract<Expr, { kind: 'field' }>): Typed {
    const scope = this.scopes[expr.scope];
    if (scope === undefined) {
      const available = Object.keys(this.scopes).map((name) => `${name}.`);
      this.problem(
        'SR2008',
        `${expr.scope}.${expr.name}: the ${expr.scope}. scope is not available here; use ${available.join(', ') || 'literals'}`,
        expr,
      );
      return this.poisoned(expr);
    }
    const field = scope.fields.get(expr.name);
    if (field === undefined) {
      const known = [...scope.fields.keys()];
      this.problem(
        'SR2003',
        `${expr.scope}.${expr.name}: ${scope.what} has no field ${expr.name}${known.length > 0 ? `; it has ${known.join(', ')}` : ''}`,
        expr,
      );
      return this.poisoned(expr);
    }
    this.reads.push({ scope: expr.scope, name: expr.name });
    return this.typed(expr, { type: field.type, nullable: field.nullable });
  }

  private unary(expr: Extract<Expr, { kind: 'unary' }>): Typed {
    const operand = this.visit(expr.operand);
    const { type, nullable, constant } = operand.typing;
    const node = { ...expr, operand: operand.expr };
    if (operand.poisoned === true) return this.poisoned(node);
    if (expr.op === 'NOT') {
      if (type !== 'BOOL' && type !== 'NULL') this.problem('SR2005', `NOT needs a BOOL, not ${type}`, expr);
      return this.typed(node, { type: 'BOOL', nullable });
    }
    if (type !== 'NULL' && !isNumeric(type)) {
      this.problem('SR2005', `unary - needs a number, not ${type}`, expr);
      return this.typed(node, { type: 'I64', nullable });
    }
    if (constant !== undefined) {
      const negated = -constant;
      // -18446744073709551615 is below every integer type; -9223372036854775808 is the least I64.
      if (!fitsInteger(negated, 'I64')) {
        this.problem('SR2005', `${negated} is beyond I64 (the least is ${I64_MIN})`, expr);
        return this.poisoned(node);
      }
      return this.typed(node, { type: 'I64', nullable, constant: negated });
    }
    return this.typed(node, { type: type === 'F64' ? 'F64' : 'I64', nullable });
  }

  private binary(expr: Extract<Expr, { kind: 'binary' }>): Typed {
    const left = this.visit(expr.left);
    const right = this.visit(expr.right);
    const node = { ...expr, left: left.expr, right: right.expr };
    if (left.poisoned === true || right.poisoned === true) return this.poisoned(node);
    const nullable = left.typing.nullable || right.typing.nullable;
    const { op } = expr;
    if (op === 'AND' || op === 'OR') {
      this.operands([left, right], 'BOOL', (type) => `${op} needs BOOL operands, not ${type}`);
      return this.typed(node, { type: 'BOOL', nullable });
    }
    if (op === '||') {
      this.operands(
        [left, right],
        'STRING',
        (type) => `|| joins STRING values, not ${type}; convert with to_string()`,
      );
      return this.typed(node, { type: 'STRING', nullable });
    }
    if (op === '+' || op === '-' || op === '*' || op === '/') return this.arithmetic(node, left, right);
    const problem = comparisonProblem(op, left.typing.type, right.typing.type);
    if (problem !== undefined) this.problem('SR2005', problem, expr);
    return this.typed(node, { type: 'BOOL', nullable });
  }

  /** Each operand must be of `type` (or the NULL literal). */
  private operands(
    sides: readonly Typed[],
    type: 'BOOL' | 'STRING',
    message: (found: string) => string,
  ): void {
    for (const side of sides) {
      const found = side.typing.type;
      if (found !== type && found !== 'NULL') this.problem('SR2005', message(found), side.expr);
    }
  }

  private arithmetic(node: Extract<Expr, { kind: 'binary' }>, left: Typed, right: Typed): Typed {
    const nullable = left.typing.nullable || right.typing.nullable;
    for (const side of [left, right]) {
      if (!isNumeric(side.typing.type) && side.typing.type !== 'NULL') {
        this.problem('SR2005', `${node.op} needs numbers, not ${side.typing.type}`, side.expr);
        return this.typed(node, { type: 'I64', nullable });
      }
    }
    if (left.typing.type === 'NULL' || right.typing.type === 'NULL') {
      return this.typed(node, { type: 'NULL', nullable: true });
    }
    return this.typed(node, { type: numericJoin(left.typing, right.typing), nullable });
  }

  private call(expr: Extract<Expr, { kind: 'call' }>): Typed {
    const args = expr.args.map((arg) => this.visit(arg));
    const node = { ...expr, args: args.map((arg) => arg.expr) };
    const spec = functionSpec(expr.name);
    if (spec === undefined) {
      this.problem('SR2006', `unknown function ${expr.name}(); the functions are ${FUNCTION_LIST}`, expr);
      return this.poisoned(node);
    }
    const [min, max] = spec.arity;
    if (args.length < min || args.length > max) {
      this.problem('SR2006', `${expr.name}() takes ${describeArity(spec.arity)}, not ${args.length}`, expr);
      return this.poisoned(node);
    }
    if (args.some((arg) => arg.poisoned === true)) return this.poisoned(node);
    const result = spec.result(args.map((arg) => arg.typing));
    if (typeof result === 'string') {
      this.problem('SR2005', `${expr.name}(): ${result}`, expr);
      return this.poisoned(node);
    }
    return this.typed(node, result);
  }
}

const FUNCTION_LIST = 'lower, upper, trim, concat, coalesce, length, substr, now, to_string, to_i64 and abs';
