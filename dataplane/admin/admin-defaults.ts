// The admin API's defaults (its address, the health listener's, subscription buffers and limits), apart
// from the servers themselves: the command line shows them in its help and checks requests' parameters
// without loading the servers (docs/benchmarks.md, "CLI start-up").

export const DEFAULT_ADMIN_LISTEN_ADDR = '127.0.0.1:8081';
export const DEFAULT_HEALTH_LISTEN_ADDR = '0.0.0.0:8082';

export const DEFAULT_MAX_SUBSCRIBERS = 1_000;
export const DEFAULT_SUBSCRIPTION_BUFFER_BYTES = 16 * 1024 * 1024;
export const DEFAULT_NODE_BUFFER_BYTES = 64 * 1024 * 1024;

/** Records a subscriber may lag behind by unless the request asks otherwise (`?buffer=N`). */
export const DEFAULT_SUBSCRIBER_BUFFER = 10_000;
/** The largest `?buffer=N` accepted. */
export const MAX_SUBSCRIBER_BUFFER = 1_000_000;
