// hr-service-mock/msw: the mock as Mock Service Worker 2.x handlers, one per operation
// (mock/edges/msw/handlers.ts), for setupWorker in a page and setupServer in unit tests.
export * from "../app/create-handlers.js";
