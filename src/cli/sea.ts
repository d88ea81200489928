/** The entry of the single-file binary (scripts/package.mjs): the same main as bin/adreport. */
import { main } from "./entry";

void main();
