/**
 * The words of a report's request checked one flag at a time, with the contract's own rules but none of its
 * schemas: `report` refuses a typo in --metrics, --campaign, --ad, --dims or --granularity with these before
 * anything of the export loads (a start's cost), and planRequest checks the same before the whole request
 * goes through the contract. The rules between flags (one entity, keyword without date, 90 days) are the
 * contract's, checked then.
 */
import { granularityProblem, nameListProblem } from "../../contract/field-rules";
import { DIMENSIONS } from "../../contract/fields";
import { UsageError } from "../../core/errors";
import { readWholeNumber } from "../../core/whole-number";
import { readMetricNames } from "./metric-list";

const FLAG_OF_PARAM: Record<string, string> = {
  from: "--from",
  to: "--to",
  metrics: "--metrics",
  dimensions: "--dims",
  granularity: "--granularity",
  campaign_id: "--campaign",
  ad_id: "--ad",
  limit: "--page-size",
};

/** A contract message about `param` (`param: ...`) in the words of its flag (`--flag: ...`). */
export function inFlagWords(param: string, message: string): string {
  const flag = FLAG_OF_PARAM[param] ?? param;
  return message.startsWith(`${param}: `) ? `${flag}: ${message.slice(param.length + 2)}` : message;
}

/** A comma list as the flag gives it, with the spaces around its items dropped. */
export function trimmedList(text: string | undefined): string | undefined {
  return text
    ?.split(",")
    .map((item) => item.trim())
    .join(",");
}

/** The id `--campaign` or `--ad` gives, trimmed; a UsageError when it is not a positive integer. */
export function positiveId(text: string | undefined, flag: string): string | undefined {
  if (text === undefined) return undefined;
  const id = text.trim();
  const value = readWholeNumber(id);
  if (value === undefined || value < 1)
    throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a positive integer id`);
  return id;
}

export interface RequestFlagWords {
  metrics?: string | undefined;
  dimensions?: string | undefined;
  granularity?: string | undefined;
  campaign?: string | undefined;
  ad?: string | undefined;
}

/** Throws the UsageError of the first flag whose words the contract would refuse alone, in planRequest's order. */
export function checkRequestWords(words: RequestFlagWords): void {
  if (words.metrics !== undefined) readMetricNames(words.metrics);
  positiveId(words.campaign, "--campaign");
  positiveId(words.ad, "--ad");
  const dimensions = trimmedList(words.dimensions);
  if (dimensions !== undefined) refuseAs("dimensions", nameListProblem("dimensions", DIMENSIONS, dimensions));
  if (words.granularity !== undefined) refuseAs("granularity", granularityProblem(words.granularity.trim()));
}

function refuseAs(param: string, problem: string | undefined): void {
  if (problem !== undefined) throw new UsageError(inFlagWords(param, problem));
}
