// HTTP methods as the mock's edges treat them.

/** Methods whose body the API's operations may read: the edges pass it on for these only. */
export const BODY_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);
