// The code of a thrown error (`ECONNREFUSED`, `ERR_OSSL_…`), for logs, counters and transient errors: the
// one part of an error that is bounded and never quotes a payload, a file's content or key material.

/** `error.code` when it is a string, else `fallback`. */
export function errorCode(error: unknown, fallback = 'UNKNOWN'): string {
  return codeOf(error) ?? fallback;
}

/** `error.code` when it is a string (`ENOENT`), else undefined. */
export function codeOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
