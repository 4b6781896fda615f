// What a syslog listener counts about its sockets, for DESCRIBE and the Prometheus counters. Plain numbers
// incremented on the hot path (a frame costs two additions); readers take a copy. Close causes form a
// bounded set: 'peer', 'framing:<FramingCause>', 'tls_handshake', 'error:<errno code>', 'stopped',
// 'idle_timeout', 'partial_frame_timeout'.

export interface SyslogListenerStats {
  connectionsOpen: number;
  connectionsAccepted: number;
  /**
   * by cause: 'peer', 'framing:<FramingCause>', 'tls_handshake', 'error:<code>', 'stopped', 'idle_timeout',
   * 'partial_frame_timeout'
   */
  connectionsClosed: Record<string, number>;
  frames: number;
  frameBytes: number;
  emptyFrames: number;
  /** a connection closed mid-frame */
  truncatedFrames: number;
  oversizedDatagrams: number;
  tlsHandshakeFailures: number;
}

export function emptyStats(): SyslogListenerStats {
  return {
    connectionsOpen: 0,
    connectionsAccepted: 0,
    connectionsClosed: {},
    frames: 0,
    frameBytes: 0,
    emptyFrames: 0,
    truncatedFrames: 0,
    oversizedDatagrams: 0,
    tlsHandshakeFailures: 0,
  };
}

export function countClosed(stats: SyslogListenerStats, cause: string): void {
  stats.connectionsOpen--;
  stats.connectionsClosed[cause] = (stats.connectionsClosed[cause] ?? 0) + 1;
}

export function copyStats(stats: SyslogListenerStats): SyslogListenerStats {
  return { ...stats, connectionsClosed: { ...stats.connectionsClosed } };
}
