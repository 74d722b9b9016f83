// Preloaded into a mock the bench profiles (node --import <this file> … hr-mock serve): asked
// {profile: "start"} over the IPC channel, it starts V8's sampling profiler through node:inspector;
// asked {profile: "stop", file}, it writes the profile there and answers. So the profile holds the
// load alone, not the start-up before it.
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const session = new Session();
session.connect();
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

process.on("message", async (message) => {
  if (message?.profile === "start") {
    await post("Profiler.enable");
    // 250 µs: several samples per request without the sampling costing the mock much.
    await post("Profiler.setSamplingInterval", { interval: 250 });
    await post("Profiler.start");
    process.send?.({ profile: "started" });
  } else if (message?.profile === "stop") {
    const { profile } = await post("Profiler.stop");
    writeFileSync(message.file, JSON.stringify(profile));
    process.send?.({ profile: "stopped" });
  }
});
