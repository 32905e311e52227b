/**
 * Runs the bulk import and export files last. They fill the tier's one DynamoDB Local with
 * tens of thousands of items, after which every other file's calls run several times slower
 * (a CI run took the sequencer and interop tests from 1-1.5 min to 5 min and past their
 * timeouts). Otherwise jest's own order.
 */
const Sequencer = require('@jest/test-sequencer').default;

const HEAVY = /(imports|imports-crash|exports|admin-bulk-objects)\.test\.ts$/;

class HeavyLastSequencer extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    const ordinary = ordered.filter((test) => !HEAVY.test(test.path));
    const heavy = ordered.filter((test) => HEAVY.test(test.path));
    return [...ordinary, ...heavy];
  }
}

module.exports = HeavyLastSequencer;
