/** The synthesized stack for Template assertions: `lib/synthesized-stack.ts`, which local mode reads too. */
export * from '../../lib/synthesized-stack.js';
