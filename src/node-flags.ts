// Node flags reelay's service runs with. They must be given on the command line (V8 reads them when
// the heap is set up), so package.json's scripts and bin/reelay.js repeat them; a test keeps the
// copies equal.
//
// --max-semi-space-size=8: the young generation otherwise grows to tens of MB per semi-space under
// load and stays committed. Measured with `npm run bench -- --only memory` (64 MiB cache budget,
// 200,000 requests): V8's committed heap grew from 72 to 172 MB with Node 24's default; bench/README.md
// has the figures with this flag.
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
