/**
 * How often an EventBridge schedule expression fires in a month: `rate(...)` exactly, and
 * `cron(...)` from its minute and hour fields (a cron that names days fires on fewer days than
 * counted here, so its figure is an upper bound, and says so).
 */
import { HOURS_PER_MONTH } from './aws-prices.js';

const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;
const DAYS_PER_MONTH = HOURS_PER_MONTH / 24;
const UNIT_SECONDS: Record<string, number> = { minute: 60, hour: 3600, day: 86_400 };

/** How many times a schedule fires in a month; `upperBound` when the count assumes every day. */
export interface ScheduleFrequency {
  triggersPerMonth: number;
  upperBound: boolean;
}

/**
 * @example
 * triggersPerMonth('rate(1 minute)'); // { triggersPerMonth: 43800, upperBound: false }
 * triggersPerMonth('cron(0/15 * * * ? *)'); // { triggersPerMonth: 2920, upperBound: false }
 */
export function triggersPerMonth(expression: string): ScheduleFrequency {
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression.trim());
  if (rate) {
    const periodSeconds = Number(rate[1]) * UNIT_SECONDS[rate[2]!]!;
    return { triggersPerMonth: SECONDS_PER_MONTH / periodSeconds, upperBound: false };
  }
  const cron = /^cron\((.+)\)$/.exec(expression.trim());
  if (cron) {
    const [minutes, hours, dayOfMonth, month, dayOfWeek] = cron[1]!.trim().split(/\s+/);
    if (!minutes || !hours || !dayOfMonth || !month || !dayOfWeek)
      throw new Error(`Cannot read the schedule "${expression}"`);
    const everyDay = [dayOfMonth, month, dayOfWeek].every((field) => field === '*' || field === '?');
    const perDay = valuesOf(minutes, 0, 59) * valuesOf(hours, 0, 23);
    return { triggersPerMonth: perDay * DAYS_PER_MONTH, upperBound: !everyDay };
  }
  throw new Error(`Cannot read the schedule "${expression}"`);
}

/** How many values a cron field takes in [first, last]: `*`, `a`, `a-b`, `*\/n`, `a/n`, lists. */
function valuesOf(field: string, first: number, last: number): number {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    const [from, to] =
      range === '*'
        ? [first, last]
        : range!.includes('-')
          ? range!.split('-').map(Number)
          : [Number(range), stepText === undefined ? Number(range) : last];
    if (!Number.isInteger(from) || !Number.isInteger(to) || !Number.isInteger(step) || step < 1)
      throw new Error(`Cannot read the cron field "${field}"`);
    for (let value = from!; value <= to!; value += step) values.add(value);
  }
  return values.size;
}
