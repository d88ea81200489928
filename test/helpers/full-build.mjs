// `node full-build.mjs ARGS`: the ES module build alone, as bin/adreport runs it for every command line the
// front (dist/front.cjs) hands over; tests compare the two. Needs `node scripts/build.mjs` first.
import { main } from "../../dist/adreport.mjs";

await main();
