// Runs in a fresh Node process: loads one bundle as Lambda's runtime does (require of a
// CommonJS module) and prints how long its module initialization took, in milliseconds.
const bundlePath = process.argv[2];
const started = process.hrtime.bigint();
const loaded = require(bundlePath);
const initMs = Number(process.hrtime.bigint() - started) / 1e6;
if (typeof loaded.handler !== 'function') {
  process.stderr.write(`${bundlePath} exports no handler function\n`);
  process.exit(2);
}
process.stdout.write(JSON.stringify({ initMs }));
