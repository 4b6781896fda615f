// `streamroute node`'s listener defaults and log levels, apart from the node itself: the command line
// shows them in its help without loading the node (docs/benchmarks.md, "CLI start-up").
import { DEFAULT_ADMIN_LISTEN_ADDR } from '../../../dataplane/admin/admin-defaults.js';
import {
  DEFAULT_HTTP_LISTEN_ADDR,
  DEFAULT_HTTPS_LISTEN_ADDR,
} from '../../../dataplane/sources/http/config.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

export const NODE_DEFAULTS = {
  httpListenAddr: DEFAULT_HTTP_LISTEN_ADDR,
  httpsListenAddr: DEFAULT_HTTPS_LISTEN_ADDR,
  adminListenAddr: DEFAULT_ADMIN_LISTEN_ADDR,
  onBindError: 'exit',
  httpErrorBody: 'explain',
} as const;
