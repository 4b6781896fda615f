// The body of `POST /v1/domains/{domain}/statements`: its type checked, read up to a limit, parsed, and
// checked before anything runs. A body that is not JSON (or not declared as JSON), lacks the script,
// carries bad base64 or an upload path that would leave the version directory (`..`, absolute) is the
// client's mistake: a ControlError (400, 413, 415) with a code of the admin API's catalog.
import type { IncomingMessage } from 'node:http';
import { isPlainObject } from '../api/validate.js';
import type { AdminErrorCode } from '../../dataplane/admin/admin-errors.js';
import { messageOf } from '../../dataplane/core/error-text.js';
import type { StatementRequest, Upload, UploadFile } from './protocol.js';
import { unsafeUploadPath } from './resource-store.js';

/** Bodies carry uploaded files in base64; 64 MiB is far above any graph's resources. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The source locations carry when the request names none. */
export const DEFAULT_SOURCE = '<request>';

/** A request the node does not run: answered with the code (its status from the catalog) and the message. */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  readonly code: AdminErrorCode;
  /** Headers the answer carries (`Allow` with a 405). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: AdminErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.headers = headers;
  }
}

/**
 * A statement request must say it is JSON. The types a cross-site form or `fetch` may send without
 * asking the server first (text/plain, form encodings) are refused, so a web page the operator visits
 * cannot run statements on a node listening on loopback (docs/node.md#the-control-api).
 */
export function requireJson(request: IncomingMessage): void {
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (type === 'application/json') return;
  const sent =
    type === undefined || type === ''
      ? 'no Content-Type'
      : `Content-Type ${JSON.stringify(type.slice(0, 64))}`;
  throw new ControlError('unsupported_media_type', `${sent}: a statement request is application/json`);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The client went away before its body arrived: there is nobody to answer. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
}

/** The whole body, or a 413 ControlError as soon as it passes `limit` (the rest is not read). */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  // The rest of a body too large is not read: the connection closes rather than keep it in the socket.
  const tooLarge = () =>
    new ControlError('body_too_large', `the body is larger than ${limit} bytes`, { Connection: 'close' });
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  // A request that waited its turn (control-routes.ts) may have lost its client meanwhile.
  if (request.destroyed) return Promise.reject(new ClientGoneError('the client closed the connection'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      request.pause();
      reject(tooLarge());
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (): void => {
      stop();
      reject(new ClientGoneError('the connection failed before the body ended'));
    };
    const onClose = (): void => {
      stop();
      reject(new ClientGoneError('the client closed the connection before its body ended'));
    };
    const stop = (): void => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

export function parseStatementRequest(body: Buffer): StatementRequest {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error: unknown) {
    throw new ControlError('invalid_json', `the body is not JSON: ${messageOf(error)}`);
  }
  if (!isPlainObject(value) || typeof value.script !== 'string') {
    throw invalid('the body must be an object with "script": the statements as a string');
  }
  const { script, source = DEFAULT_SOURCE, uploads = [] } = value;
  if (typeof source !== 'string' || source === '') throw invalid('"source" must be a non-empty string');
  if (!Array.isArray(uploads)) throw invalid('"uploads" must be a list');
  return { script, source, uploads: (uploads as unknown[]).map(parseUpload) };
}

function parseUpload(value: unknown, index: number): Upload {
  const at = `uploads[${index}]`;
  if (!isPlainObject(value)) throw invalid(`${at} must be an object`);
  const { resource, directory, files } = value;
  if (typeof resource !== 'string' || typeof directory !== 'string' || !Array.isArray(files)) {
    throw invalid(`${at} must have "resource" and "directory" (strings) and "files" (a list)`);
  }
  const parsed = (files as unknown[]).map((file, fileIndex) => parseFile(file, `${at}.files[${fileIndex}]`));
  checkPathsDistinct(parsed, at);
  return { resource, directory, files: parsed };
}

function parseFile(value: unknown, at: string): UploadFile {
  if (!isPlainObject(value) || typeof value.path !== 'string' || typeof value.base64 !== 'string') {
    throw invalid(`${at} must have "path" and "base64" (strings)`);
  }
  const problem = unsafeUploadPath(value.path);
  if (problem !== undefined) throw badUpload(`${at}.path ${JSON.stringify(value.path)} ${problem}`);
  if (!BASE64.test(value.base64)) throw badUpload(`${at}.base64 is not base64`);
  return { path: value.path, content: Buffer.from(value.base64, 'base64') };
}

/** No path twice, and none both a file and a directory of others (`a` and `a/b`). */
function checkPathsDistinct(files: readonly UploadFile[], at: string): void {
  const paths = new Set(files.map((file) => file.path));
  if (paths.size !== files.length) throw badUpload(`${at} names a file twice`);
  for (const path of paths) {
    const parts = path.split('/');
    for (let cut = 1; cut < parts.length; cut++) {
      const parent = parts.slice(0, cut).join('/');
      if (paths.has(parent)) throw badUpload(`${at}: ${parent} is both a file and a directory`);
    }
  }
}

function invalid(message: string): ControlError {
  return new ControlError('invalid_request', message);
}

function badUpload(message: string): ControlError {
  return new ControlError('invalid_upload', message);
}
