// `node --import ./module-log.mjs ...`: appends what the process loads to the file named by
// ADREPORT_MODULE_LOG, one a line: the URL of every ES module (the bundle's chunks and Node's own modules
// they import), and `require:` with what CommonJS code required (bin/adreport and the front, dist/front.cjs).
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";

const file = process.env.ADREPORT_MODULE_LOG;
if (file) {
  const hooks = `
    import { appendFileSync } from "node:fs";
    let file;
    export function initialize(data) { file = data.file; }
    export async function load(url, context, next) {
      appendFileSync(file, url + "\\n");
      return next(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url, { data: { file } });
  // No public hook sees require() on every Node line this project runs on: wrap the loader's entry.
  const load = Module._load;
  Module._load = function logged(request, ...rest) {
    appendFileSync(file, `require:${request}\n`);
    return load.call(this, request, ...rest);
  };
}
