// What a jq program's runtime error says in a message error: one kind from a fixed table, never the error's
// own text. jq's messages quote the value that failed (`Cannot iterate over string ("…")`, `number (…) and
// string (…) cannot be added`, `Invalid path expression near attempt to iterate through [77,107,…]`), and
// what a program passes to `error` is often built from the payload, so no part of the text is kept: the
// message only selects a row of JQ_ERROR_KINDS by the words jq's own messages are made of (jq 1.8:
// src/jv.c, builtin.c, execute.c, builtin.jq). Matching picks a kind and nothing more; whatever the text,
// the reason shows that kind's fixed description (docs/codecs.md, "jq error kinds").

/** Every kind, with the description a reason shows. */
export const JQ_ERROR_KINDS = {
  iterate: 'iterating over a value that is neither an array nor an object (.[])',
  index: 'indexing a value with a key or index it does not take (.a, .[n], has, getpath, setpath)',
  object_key: 'an object key that is not a string ({(k): v})',
  arithmetic: 'an operator applied to values of types it does not combine (+ - * / %, negation, contains)',
  divide_by_zero: 'a division or remainder by zero',
  parse: 'text that does not parse as a number or as JSON (tonumber, fromjson)',
  base64: 'text that is not base64 (@base64d)',
  path: 'an expression that is not a path where a path is needed (path, paths, del, to_entries, update-assignment)',
  regex: 'a regular expression that does not compile, or a value matched that is not a string',
  date: 'a date or time that does not parse or convert (strptime, mktime, strftime, todate, fromdate)',
  format: 'a value a format string cannot write (@csv, @tsv, @sh, …)',
  argument: 'a builtin given an argument out of its range (limit, range, implode, …)',
  type: 'a builtin given a value of a type it does not take (keys, length, sort, explode, ltrimstr, …)',
  depth: 'a depth limit of jq (parsing or printing)',
  error_text: 'the program raised an error with a text message (error/1), or jq one this table does not know',
  error_value: 'the program raised an error with a value that is not text (error/1, error(null))',
} as const;

export type JqErrorKind = keyof typeof JQ_ERROR_KINDS;

/**
 * The shapes of jq's own messages, most specific first. A message matching none is `error_text`: text the
 * program raised itself. A program whose own text imitates jq's is reported with jq's kind, which shows
 * nothing of either.
 */
const SHAPES: readonly [JqErrorKind, RegExp][] = [
  ['divide_by_zero', /cannot be divided(?: \(remainder\))? because the divisor is zero$/],
  ['object_key', /^Cannot use [a-z]+ \(.*\) as object key$|^Object keys must be strings$/s],
  ['iterate', /^Cannot iterate over /],
  [
    'index',
    /^Cannot (?:index|check whether|update field at|delete field at) |^Out of bounds negative array index$/,
  ],
  [
    'arithmetic',
    / cannot be (?:added|subtracted|multiplied|divided|negated)$| cannot have their containment checked$/s,
  ],
  ['depth', /^Exceeds depth limit/],
  [
    'parse',
    / cannot be parsed as a number$|\(while parsing '|only strings can be parsed$|^Invalid numeric literal|^Unfinished /s,
  ],
  ['base64', / is not valid base64 data$| trailing base64 byte found$/s],
  ['path', /^Invalid path |^Paths? must be specified as an? /],
  [
    'regex',
    / cannot be matched, as it is not a string$| is not a valid regex|^Regex failure| is not a string$/s,
  ],
  [
    'date',
    /^date ".*" does not match format|^(?:strptime|strftime|strflocaltime|mktime|gmtime|localtime|timegm|dateadd|datesub|date)(?:\/\d)? |requires parsed datetime inputs$/s,
  ],
  [
    'format',
    / cannot be (?:csv|tsv)-formatted, only an? |is not valid in a csv row$| can not be escaped for shell$| is not a valid format$/s,
  ],
  [
    'argument',
    /^limit doesn't support negative count$|^Invalid codepoint literal|^Range bounds must be numeric$|^Out of bounds/,
  ],
  [
    'type',
    / has no keys$| has no length$| cannot be sorted, as it is not an array$| cannot be reversed|only strings have UTF-8 byte length$| has no absolute value$|input must be an? |requires string inputs|requires array inputs|^[a-z_0-9]+(?:\/\d)? (?:input|requires|argument)|not a string or array$| is not an array$|^Cannot determine /s,
  ],
];

/** jq's words are at the start or the end of its messages; a long message is matched on these only. */
const ENDS = 256;

/** The kind of what a program raised (jq's `try … catch` value): never anything of the value itself. */
export function jqErrorKind(raised: unknown): JqErrorKind {
  if (typeof raised !== 'string') return 'error_value';
  // A program may raise megabytes of text: the work stays bounded whatever its size.
  const text = raised.length > 2 * ENDS ? `${raised.slice(0, ENDS)}\n${raised.slice(-ENDS)}` : raised;
  for (const [kind, shape] of SHAPES) if (shape.test(text)) return kind;
  return 'error_text';
}
