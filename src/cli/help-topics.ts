/**
 * `adreport help <topic>`, as gh does it: the reference that is not one command's flags. Each topic's text
 * is docs/topics/<name>.md, the same file the docs link to; only these names and summaries load at
 * start-up, the text itself when a topic is asked for (topic-text.ts, a dynamic import).
 */
export const HELP_TOPICS = {
  formats: "table, CSV, TSV, JSON, NDJSON, Parquet, HTML and chart: columns, types, dates, ratios, spreadsheets",
  dates: "--from/--to words, time zones (--tz), --compare, weeks and months",
  cron: "scheduled exports: a crontab line, --incremental, {date} files, database targets, state",
  monitoring: "adreport status: each job's newest and settled day, its last run and lock; --max-lag and exit 8",
  settings: "every setting of `adreport config`, its environment variable and default",
  environment: "environment variables, proxies and a private certificate authority",
  "exit-codes": "what each exit code means, for scripts and cron wrappers",
  logging: "--log-format json: stderr as one JSON object a line, and every code",
  telemetry: "OpenTelemetry (OTEL_* variables) and --metrics-file for Prometheus",
} as const;

export type HelpTopic = keyof typeof HELP_TOPICS;
export const HELP_TOPIC_NAMES = Object.keys(HELP_TOPICS) as HelpTopic[];

export function isHelpTopic(word: string): word is HelpTopic {
  return Object.hasOwn(HELP_TOPICS, word);
}

/** The lines `adreport --help` ends with. */
export function topicsHelpText(): string {
  const width = Math.max(...HELP_TOPIC_NAMES.map((name) => name.length));
  const lines = HELP_TOPIC_NAMES.map((name) => `  ${name.padEnd(width)}  ${HELP_TOPICS[name]}`);
  return `Help topics (adreport help <topic>):\n${lines.join("\n")}`;
}
