/**
 * docs/topics/settings.md (`adreport help settings`), made from the settings' own declarations in
 * src/config/settings.ts, so a new setting cannot be left out. `npm run docs` writes it; a test checks it.
 */
import { SETTING_NAMES, SETTINGS } from "../config/settings";

function shown(value: unknown): string {
  if (value === undefined) return "-";
  if (value === ",") return "`,`";
  return `\`${String(value)}\``;
}

export function settingsTopic(): string {
  const rows = SETTING_NAMES.map((name) => {
    const { env, help } = SETTINGS[name];
    return `| \`${name}\` | ${env ? `\`${env}\`` : "-"} | ${shown(SETTINGS[name].default)} | ${help.replace(/\|/g, "\\|")} |`;
  });
  return `# Settings

<!-- Generated from src/config/settings.ts by \`npm run docs\`; do not edit by hand. -->

Kept with \`adreport config set NAME VALUE\` in the config file, or in one profile with \`--profile NAME\`
(every setting but \`profile\`). A value is checked on the way in: a bad one is exit 2 naming what is allowed.
\`adreport config list\` shows each value in effect and where it comes from.

Precedence: a flag, else the environment variable, else the profile, else the config file, else the default.
A profile named by \`--profile\` or \`ADREPORT_PROFILE\` sends its own key and \`base-url\`, never
\`ADREPORT_API_KEY\` or \`ADREPORT_BASE_URL\` (\`adreport help environment\`, "Which key is used").

| setting | environment | default | meaning |
|---|---|---|---|
${rows.join("\n")}

The config file is \`config.json\` in \`$ADREPORT_CONFIG_DIR\` (default \`$XDG_CONFIG_HOME/adreport\`, else
\`~/.config/adreport\`); \`adreport config path\` prints it.
`;
}
