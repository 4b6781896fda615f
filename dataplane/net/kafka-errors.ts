// A Kafka client library error as the data plane shows it (docs/kafka.md, "Errors"): a bounded code — the
// broker's error name (TOPIC_AUTHORIZATION_FAILED, UNKNOWN_TOPIC_OR_PARTITION …), else the socket's errno
// (ECONNREFUSED …), else the library's own code — and a short reason in our words. The library's and the
// broker's messages are not shown: they are free text we do not control.

/** A few codes people meet first, in words; any other code stands for itself. */
const REASONS: Readonly<Record<string, string>> = {
  UNKNOWN_TOPIC_OR_PARTITION: 'the topic does not exist',
  UNKNOWN_TOPIC_ID: 'the topic does not exist',
  TOPIC_AUTHORIZATION_FAILED: 'not authorized for the topic',
  GROUP_AUTHORIZATION_FAILED: 'not authorized for the consumer group',
  CLUSTER_AUTHORIZATION_FAILED: 'not authorized for the cluster',
  SASL_AUTHENTICATION_FAILED: 'SASL authentication failed',
  ILLEGAL_SASL_STATE: 'SASL authentication failed',
  UNSUPPORTED_SASL_MECHANISM: 'the brokers do not offer the SASL mechanism',
  MESSAGE_TOO_LARGE: 'the message is larger than the topic accepts',
  RECORD_LIST_TOO_LARGE: 'the batch is larger than the topic accepts',
  INVALID_TOPIC_EXCEPTION: 'the topic name is not valid',
  LEADER_NOT_AVAILABLE: 'the partition has no leader now',
  NOT_LEADER_OR_FOLLOWER: 'the partition moved to another broker',
  COORDINATOR_NOT_AVAILABLE: 'the group coordinator is not available',
  NOT_COORDINATOR: 'the group coordinator moved',
  REBALANCE_IN_PROGRESS: 'the group is rebalancing',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'the broker host name does not resolve',
  ETIMEDOUT: 'timed out',
  PLT_KFK_TIMEOUT: 'timed out',
  PLT_KFK_NETWORK: 'the brokers cannot be reached',
  PLT_KFK_AUTHENTICATION: 'authentication failed',
};

/** Codes that are the record's fault, not the connection's: retrying the same bytes cannot help. */
export const RECORD_ERROR_CODES: ReadonlySet<string> = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'CORRUPT_MESSAGE',
]);

export interface KafkaErrorInfo {
  code: string;
  reason: string;
}

/** The most specific code found in the error, its causes and its nested errors. */
export function kafkaErrorInfo(error: unknown): KafkaErrorInfo {
  const code = brokerCode(error, 0) ?? unknownTopic(error, 0) ?? errnoCode(error, 0) ?? ownCode(error);
  return { code, reason: REASONS[code] ?? code };
}

/**
 * The library answers a metadata request that the broker refused with UNKNOWN_TOPIC_OR_PARTITION by an
 * error of its own (PLT_KFK_USER, `Unknown topic <name>.`) that keeps neither the broker's code nor a
 * cause; without this, a topic that does not exist would show as PLT_KFK_USER.
 */
function unknownTopic(error: unknown, depth: number): string | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  const code: unknown = Reflect.get(error, 'code');
  const message: unknown = Reflect.get(error, 'message');
  if (code === 'PLT_KFK_USER' && typeof message === 'string' && message.startsWith('Unknown topic '))
    return 'UNKNOWN_TOPIC_OR_PARTITION';
  for (const inner of nested(error)) {
    const found = unknownTopic(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function brokerCode(error: unknown, depth: number): string | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  const apiId: unknown = Reflect.get(error, 'apiId');
  if (typeof apiId === 'string' && /^[A-Z_]{1,64}$/.test(apiId)) return apiId;
  for (const inner of nested(error)) {
    const found = brokerCode(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function errnoCode(error: unknown, depth: number): string | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  const code: unknown = Reflect.get(error, 'code');
  if (typeof code === 'string' && /^E[A-Z]{2,30}$/.test(code)) return code;
  for (const inner of nested(error)) {
    const found = errnoCode(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function ownCode(error: unknown): string {
  const code: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  if (typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'UNKNOWN';
}

function nested(error: object): unknown[] {
  const inner: unknown[] = [];
  const cause: unknown = Reflect.get(error, 'cause');
  if (cause !== undefined) inner.push(cause);
  const errors: unknown = Reflect.get(error, 'errors');
  if (Array.isArray(errors)) inner.push(...(errors as unknown[]));
  return inner;
}
