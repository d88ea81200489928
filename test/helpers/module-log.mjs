// `node --import ./module-log.mjs ...`: appends the URL of every ES module the process loads (the bundle's
// chunks and Node's own modules imported by them) to the file named by ADREPORT_MODULE_LOG, one a line.
import { register } from "node:module";

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
}
