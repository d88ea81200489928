/**
 * The signal of the CommonJS front (front.ts) that a command line needs more than it carries: a command
 * that does work, or anything it would have to import. bin/adreport then runs the line again on the ES
 * module build, from the start.
 */
export class HandOver extends Error {
  constructor() {
    super("this command line is for the full build");
    this.name = "HandOver";
  }
}
