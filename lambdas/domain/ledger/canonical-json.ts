/**
 * Canonical JSON (keys sorted by code unit, no white space): defined once, in the verifier
 * that auditors and the console run, so that the service hashes exactly what they recompute.
 */
export { canonicalJson } from '../../../verifier/index.js';
