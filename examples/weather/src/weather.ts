/**
 * The weather example: tools, one resource, one resource template and one prompt. One tool asks
 * the user (`ctx.elicit`) and reports progress; another changes the tool list at run time. The
 * same class serves 2026-07-28 clients and legacy (2025-11-25) clients alike.
 * Serve it with `mcp-serve examples/weather/src/weather.ts` (stdio) — see the README.
 */
import 'reflect-metadata';
import { IsIn, IsOptional, IsString, MinLength } from 'class-validator';
import { Field, McpServer, Prompt, Resource, serverOf, Tool, ToolError, type ToolContext } from '@decorum/core';

/** Units the forecast can be given in. */
export const UNITS = ['metric', 'imperial', 'kelvin'] as const;
export type Units = (typeof UNITS)[number];

/** Arguments of `weather_current`. */
export class WeatherArgs {
  @Field({ description: 'City name or zip code' })
  @IsString()
  @MinLength(1)
  location!: string;

  @Field({ description: 'Unit system of the temperature' })
  @IsOptional()
  @IsIn(UNITS)
  units: Units = 'metric';
}

/** Arguments of the `weather_report` prompt. */
export class ReportArgs {
  @Field({ description: 'Where the report is for' })
  @IsString()
  location!: string;

  @Field({ description: 'Tone of the report, e.g. "cheerful" or "formal"' })
  @IsOptional()
  @IsString()
  style?: string;
}

/** Arguments of `weather_forecast`. */
export class ForecastArgs {
  @Field({ description: 'City name' })
  @IsString()
  @MinLength(1)
  location!: string;
}

/** The form `weather_forecast` asks with. */
const DAYS_FORM = { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 5, description: 'Days of forecast (1-5)' } }, required: ['days'] } as const;

/** The tool `weather_alerts_toggle` adds and removes at run time. */
@McpServer({ name: 'weather-alerts', version: '1.0.0' })
class WeatherAlerts {
  @Tool({ description: 'Weather alerts in force (there are none)', input: null })
  weather_alerts(): string {
    return 'No weather alerts in force.';
  }
}

const CITIES: Record<string, { celsius: number; conditions: string }> = {
  'new york': { celsius: 22, conditions: 'Partly cloudy' },
  london: { celsius: 14, conditions: 'Light rain' },
  tokyo: { celsius: 26, conditions: 'Sunny' },
};

function temperature(celsius: number, units: Units): string {
  if (units === 'imperial') return `${Math.round((celsius * 9) / 5 + 32)}°F`;
  if (units === 'kelvin') return `${(celsius + 273.15).toFixed(2)} K`;
  return `${celsius}°C`;
}

@McpServer({ name: 'weather', version: '1.0.0', instructions: 'Current weather for a few cities. Ask for a location by name.' })
export class WeatherServer {
  @Tool({
    title: 'Weather Information Provider',
    description: 'Get current weather information for a location',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  weather_current(args: WeatherArgs, ctx: ToolContext): string {
    const city = CITIES[args.location.trim().toLowerCase()];
    if (!city) throw new ToolError(`No weather data for "${args.location}". Known locations: New York, London, Tokyo.`);
    ctx.log.debug({ location: args.location }, 'weather lookup');
    return `Current weather in ${args.location}:\nTemperature: ${temperature(city.celsius, args.units)}\nConditions: ${city.conditions}`;
  }

  @Tool({ title: 'Forecast', description: 'A forecast for the coming days: asks how many days, then reports progress per day' })
  async weather_forecast(args: ForecastArgs, ctx: ToolContext): Promise<string> {
    const city = CITIES[args.location.trim().toLowerCase()];
    if (!city) throw new ToolError(`No weather data for "${args.location}". Known locations: New York, London, Tokyo.`);
    const answer = await ctx.elicit<{ days: number }>({ message: `How many days of forecast for ${args.location}?`, requestedSchema: DAYS_FORM }, { key: 'days' });
    if (answer.action !== 'accept') return `Forecast for ${args.location}: not requested (${answer.action}).`;
    const days = answer.content!.days;
    const lines = [];
    for (let day = 1; day <= days; day++) {
      lines.push(`Day ${day}: ${city.conditions}, around ${temperature(city.celsius + (day % 3) - 1, 'metric')}`);
      ctx.progress(day, days, `Day ${day} of ${days}`);
      // A real forecast takes a moment per day (and a client may handle progress after a response that follows at once).
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return `Forecast for ${args.location}:\n${lines.join('\n')}`;
  }

  @Tool({ description: 'Turns the weather_alerts tool on or off: the tool list changes either way', input: null })
  weather_alerts_toggle(): string {
    const { live } = serverOf(this);
    if (live.tools.remove('weather_alerts')) return 'weather_alerts is off.';
    live.add(WeatherAlerts);
    return 'weather_alerts is on.';
  }

  @Resource({ uri: 'weather://cities', name: 'cities', description: 'The locations this server knows', mimeType: 'application/json' })
  cities(): string {
    return JSON.stringify(Object.keys(CITIES));
  }

  @Resource({ uriTemplate: 'weather://cities/{city}', name: 'city', description: 'Raw readings for one city', mimeType: 'application/json' })
  city({ city }: { city: string }): string | undefined {
    const reading = CITIES[city.toLowerCase()];
    return reading && JSON.stringify({ city, ...reading });
  }

  @Prompt({ title: 'Weather report', description: 'Write a short weather report for a location' })
  weather_report(args: ReportArgs): string {
    return `Write a ${args.style ?? 'neutral'} three-sentence weather report for ${args.location}. Use the weather_current tool for the data.`;
  }
}
