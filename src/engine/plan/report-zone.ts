/** The zone of a report's days, from the settings in effect (--tz, ADREPORT_TZ, a profile's or the file's tz). */
import type { ResolvedSettings } from "../../config/resolve";
import { TimeZone } from "../../core/time-zone";

/** Where --tz's zone came from, for its messages. */
export function tzGiven(source: string): string {
  return source === "flag" ? "--tz" : source === "environment" ? "ADREPORT_TZ" : `the tz setting (${source})`;
}

/** The zone of a report's days: --tz, ADREPORT_TZ or the tz setting; undefined for UTC. */
export function zoneOf(settings: ResolvedSettings): TimeZone | undefined {
  const { tz } = settings;
  return tz.value === undefined ? undefined : TimeZone.open(tz.value, tzGiven(tz.source));
}
