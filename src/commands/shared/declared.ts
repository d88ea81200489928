/**
 * Each command's flags are declared once, with `@commander-js/extra-typings`, in a function that builds
 * the command without its action; the options its `run*` function takes are inferred from that
 * declaration, so a flag cannot be used under a name or type it was not declared with.
 */

/** The options commander hands the action of the command that `declare` builds. */
export type OptionsOf<Declare extends (...args: never[]) => { opts(): object }> = ReturnType<
  ReturnType<Declare>["opts"]
>;
