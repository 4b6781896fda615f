// `streamroute node`'s listener defaults, log levels and log formats, apart from the node itself: the
// command line shows them in its help without loading the node (docs/benchmarks.md, "CLI start-up").
import { Option } from 'commander';
import { LOG_FORMATS } from '../../../dataplane/core/log-format.js';
import { DEFAULT_ADMIN_LISTEN_ADDR } from '../../../dataplane/admin/admin-defaults.js';
import {
  DEFAULT_HTTP_LISTEN_ADDR,
  DEFAULT_HTTPS_LISTEN_ADDR,
} from '../../../dataplane/sources/http/config.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** `--log-format` of `streamroute node` and `streamroute operator` (the data plane's is in its flag table). */
export function logFormatOption(): Option {
  return new Option(
    '--log-format <format>',
    'log lines as json or text (default: text when stderr is a terminal, else json)',
  ).choices(LOG_FORMATS);
}

export const NODE_DEFAULTS = {
  httpListenAddr: DEFAULT_HTTP_LISTEN_ADDR,
  httpsListenAddr: DEFAULT_HTTPS_LISTEN_ADDR,
  adminListenAddr: DEFAULT_ADMIN_LISTEN_ADDR,
  onBindError: 'exit',
  httpErrorBody: 'explain',
} as const;
