// Preloaded into a mock the bench spawns (node --expose-gc --import <this file> … hr-mock serve):
// asked "heap" over the IPC channel, it collects garbage fully and answers the heap in use, in
// bytes, so the bench reads the mock's own heap and not its own.
process.on("message", (message) => {
  if (message !== "heap") return;
  globalThis.gc();
  globalThis.gc();
  process.send?.({ heapUsed: process.memoryUsage().heapUsed });
});
