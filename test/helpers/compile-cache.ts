// Preloaded into every test process (test/run.ts passes it with --import): Node keeps the
// compiled code and the type-stripped TypeScript of each module in its compile cache (the same
// directory bin/custops.js uses for the child processes the tests start), so the next test process
// loading the app skips most of that work.
import module from 'node:module';

module.enableCompileCache?.();
