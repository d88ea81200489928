/**
 * The words completion offers beyond commander's own choices, derived from the rules the program
 * applies, so completion never offers what the CLI would refuse: dimension lists the contract accepts,
 * the setting names and the values of settings whose values are few.
 */
import * as z from "zod";
import { SETTING_NAMES, SETTINGS, type SettingName } from "../config/settings";
import {
  DIMENSIONS,
  type Dimension,
  ENTITY_DIMENSIONS,
  GRANULARITIES,
  METRICS,
  metricsAllowedFor,
  parseReportQuery,
} from "../contract";
import { HELP_TOPIC_NAMES } from "./help-topics";

/** What completes a value: fixed words, or the profile names of the config file (asked when completing). */
export type Words = readonly string[] | "@profiles";

/** Every ordering of every subset of the dimensions that the contract accepts, the shortest first. */
function acceptedDimensionLists(): string[] {
  const lists: Dimension[][] = [];
  const grow = (list: Dimension[]) => {
    if (list.length > 0) lists.push(list);
    for (const next of DIMENSIONS) if (!list.includes(next)) grow([...list, next]);
  };
  grow([]);
  return lists
    .filter(
      (dims) =>
        parseReportQuery({
          from: "2026-01-01",
          to: "2026-01-01",
          metrics: metricsAllowedFor(dims).join(","),
          dimensions: dims.join(","),
        }).ok,
    )
    .sort((a, b) => a.length - b.length)
    .map((dims) => dims.join(","));
}

/** Values of flags; `list` marks a comma list completed item by item. */
export const FLAG_VALUES: Record<string, { words: readonly string[]; list?: boolean }> = {
  "--metrics": { words: METRICS, list: true },
  "--dims": { words: acceptedDimensionLists() },
  "--dimensions": { words: acceptedDimensionLists() },
  "--granularity": { words: GRANULARITIES },
  "--from": { words: ["today", "yesterday", "-7d", "-30d"] },
  "--to": { words: ["yesterday", "today"] },
};

/**
 * `--metrics` after `--dims` with an entity that allows fewer metrics (`keyword`: no conversions), by the
 * entity's name.
 */
export function metricsNarrowedBy(): Record<string, readonly string[]> {
  const narrowed: Record<string, readonly string[]> = {};
  for (const entity of ENTITY_DIMENSIONS) {
    const allowed = metricsAllowedFor([entity]);
    if (allowed.length < METRICS.length) narrowed[entity] = allowed;
  }
  return narrowed;
}

/** Flags whose value is a file name; every other value flag completes no file names. */
export const FILE_FLAGS = ["--output", "-o", "--db", "--ndjson"];

/** The values a setting can take when they are few (an enum in its rule), or the profile names. */
function settingValues(name: SettingName): Words | undefined {
  if (name === "profile") return "@profiles";
  const schema: z.ZodType = SETTINGS[name].schema;
  return schema instanceof z.ZodEnum ? (schema.options as string[]) : undefined;
}

/** The first argument of these commands (by their words after `adreport`). */
export function firstArgumentWords(topLevel: readonly string[]): Record<string, Words> {
  return {
    help: [...topLevel, ...HELP_TOPIC_NAMES],
    "keys remove": "@profiles",
    "keys use": "@profiles",
    "keys show": "@profiles",
    "keys test": "@profiles",
    "config get": SETTING_NAMES,
    "config set": SETTING_NAMES,
    "config unset": SETTING_NAMES,
  };
}

/** The second argument, by the first: `config set <name> <value>`. */
export function secondArgumentWords(): Record<string, Record<string, Words>> {
  const values: Record<string, Words> = {};
  for (const name of SETTING_NAMES) {
    const words = settingValues(name);
    if (words) values[name] = words;
  }
  return { "config set": values };
}
