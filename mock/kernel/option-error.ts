// The one error of a bad option, thrown where options enter (startMock, createHandlers, a state
// directory that does not fit them): one sentence naming the option.
export class MockOptionError extends Error {
  override name = "MockOptionError";
}
