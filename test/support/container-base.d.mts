// Types of container-base.mjs (plain JavaScript, run by .ci/run before npm ci has installed anything).

/** What a build or an mmdebstrap run gets at most on a loaded machine. */
export const BUILD_TIMEOUT_MS: number;

/** The base's tag (made unless this machine holds it): `localhost/hr-mock-test-base:<hash of its recipe>`. */
export function containerBase(): Promise<string>;
