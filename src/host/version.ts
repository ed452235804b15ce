/** This host's own version (package.json's, set at build time), sent as `host_version` in hello_ack. */
declare const __HOST_VERSION__: string | undefined;
export const HOST_VERSION: string = typeof __HOST_VERSION__ === 'string' ? __HOST_VERSION__ : '0.0.0-dev';
