// The live API's defaults, apart from its servers so that `streamroute operator --help` shows them without
// loading the Kubernetes and TLS code (decision 0020).

/** How often an open stream's access is reviewed again. */
export const DEFAULT_REAUTHORIZE_MS = 60_000;
/** How long one stream may stay open before it must be opened, and so authenticated, again. */
export const DEFAULT_MAX_STREAM_MS = 3_600_000;
/** The name every data-plane pod's internal serving certificate carries (pods have no stable DNS name). */
export const DEFAULT_INTERNAL_SERVER_NAME = 'streamroute-dataplane';
