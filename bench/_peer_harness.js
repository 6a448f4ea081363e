// Times the original demo's parser on the bench's corpus, one request per stdin line.
// Bundled by bench/_peer.py with the demo's own esbuild; PEER_PARSER is its orchestrator.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseToolResult } from "PEER_PARSER";

const corpus = JSON.parse(readFileSync(process.argv[2], "utf8"));
const wall = process.argv[3] === "wall";

// Microseconds: process CPU (user + system, as Python's process_time) or wall.
function now() {
  if (wall) return Number(process.hrtime.bigint()) / 1000;
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

let sink = 0; // results are used, so no call can be optimised away
function parse(entry) {
  const result = parseToolResult(entry.tool, entry.content, entry.vertical, entry.input);
  sink += result.type.length;
  return result;
}

function count(result) {
  if (result.cart && Array.isArray(result.cart.items)) return result.cart.items.length;
  for (const key of ["items", "restaurants", "slots", "addresses"]) {
    if (Array.isArray(result[key])) return result[key].length;
  }
  return 0;
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [command, index, reps] = line.split(" ");
  const entry = corpus[Number(index)];
  if (command === "kind") {
    const result = parse(entry);
    process.stdout.write(`@@ ${result.type} ${count(result)}\n`);
    return;
  }
  const times = Number(reps);
  const start = now();
  for (let i = 0; i < times; i += 1) parse(entry);
  const perCall = (now() - start) / times;
  process.stdout.write(`@@ ${perCall} ${sink % 7}\n`);
});
