/**
 * man/adreport.1, made from the commander definitions as docs/cli.md is: each command's usage, description
 * and flags (with their defaults and choices), then the help topics and the settings. `npm run docs`
 * writes it; a test checks it is current.
 */
import type { EventEmitter } from "node:events";
import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { SETTING_NAMES, SETTINGS } from "../config/settings";
import { allNodes, commandTree } from "./command-tree";
import { HELP_TOPIC_NAMES, HELP_TOPICS } from "./help-topics";

/** Text as roff shows it literally: backslashes escaped, no line taken for a request. */
function roff(text: string): string {
  return text
    .replace(/\\/g, "\\e")
    .replace(/-/g, "\\-")
    .split("\n")
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join("\n");
}

/** What a command's --help shows after its flags (examples, notes): commander keeps it as listeners. */
function textAfterHelp(command: CommandUnknownOpts): string {
  let text = "";
  (command as unknown as EventEmitter).emit("afterHelp", {
    error: false,
    command,
    write: (chunk: string) => (text += chunk),
  });
  return text.replace(/^\n+/, "").trimEnd();
}

function commandSection(command: CommandUnknownOpts): string {
  const helper = command.createHelp();
  const lines = [`.SS "${roff(helper.commandUsage(command))}"`];
  lines.push(roff(command.description()));
  for (const option of helper.visibleOptions(command)) {
    if (option.long === "--help") continue;
    lines.push(".TP", `.B ${roff(helper.optionTerm(option))}`, roff(helper.optionDescription(option)));
  }
  const after = textAfterHelp(command);
  if (after !== "") lines.push(".PP", ".nf", roff(after), ".fi");
  return lines.join("\n");
}

export function manPage(program: CommandUnknownOpts, version: string): string {
  const commands = allNodes(commandTree(program))
    .filter((node) => node.path.length > 0 && node.path[0] !== "help")
    .map((node) => commandSection(node.command));
  const topics = HELP_TOPIC_NAMES.map((name) => `.TP\n.B ${roff(name)}\n${roff(HELP_TOPICS[name])}`);
  const settings = SETTING_NAMES.map((name) => {
    const { env, help } = SETTINGS[name];
    return `.TP\n.B ${roff(name)}\n${roff(help)}${env ? roff(` (environment: ${env})`) : ""}`;
  });
  return `.\\" Generated from the program's own definitions by \`npm run docs\`; do not edit by hand.
.TH ADREPORT 1 "" "adreport ${roff(version)}" "User Commands"
.SH NAME
adreport \\- ${roff(program.description())}
.SH SYNOPSIS
.B adreport
.I command
[\\fIoptions\\fR]
.br
.B adreport help
[\\fIcommand\\fR|\\fItopic\\fR]
.SH DESCRIPTION
adreport pulls advertising reports from a reporting service (GET /v1/report), every page of them, and
exports them as a table, CSV, TSV, JSON, NDJSON, an HTML page or a terminal chart, to stdout, files or a
database table; \\fBadreport serve\\fR runs a local instance of that service.
.SH COMMANDS
${commands.join("\n")}
.SH HELP TOPICS
Printed by \\fBadreport help\\fR \\fItopic\\fR.
${topics.join("\n")}
.SH SETTINGS
Kept by \\fBadreport config set\\fR in the config file or a profile; a flag wins over the environment,
which wins over the profile, then the config file, then the default.
${settings.join("\n")}
.SH EXIT STATUS
See \\fBadreport help exit\\-codes\\fR.
.SH SEE ALSO
\\fBadreport help\\fR \\fItopic\\fR; README.md and docs/ of adreport's source, where docs/cli.md holds every
command's \\fB\\-\\-help\\fR.
`;
}
