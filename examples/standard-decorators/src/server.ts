/**
 * Decorum with TC39 standard decorators: this folder's tsconfig has no experimentalDecorators,
 * so TypeScript, esbuild, tsx and Bun all compile these decorators the standard way. Standard
 * decorators carry no parameter types, so every handler with arguments names its `input:`.
 */
import { Complete, Field, McpServer, Prompt, Resource, Tool, type ToolContext } from '@decorum/core';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { Type, type Static } from 'typebox';

const Forecast = Type.Object({ location: Type.String(), days: Type.Integer({ minimum: 1, maximum: 7 }) });

/**
 * A class-validator DTO given explicitly (`input: LookupArgs`). class-validator's own decorators
 * are legacy-only, so here they are applied as calls; `@Field` works in either form.
 */
export class LookupArgs {
  @Field({ description: 'The city to look up' }) city!: string;
  @Field({ description: 'Units of the answer' }) units!: 'metric' | 'imperial';
}
IsString()(LookupArgs.prototype, 'city');
MaxLength(40)(LookupArgs.prototype, 'city');
IsIn(['metric', 'imperial'])(LookupArgs.prototype, 'units');

@McpServer({ name: 'standard-weather', version: '1.0.0' })
export class StandardWeather {
  @Tool({ description: 'Forecast for the next days', input: Forecast })
  forecast(args: Static<typeof Forecast>, ctx: ToolContext): string {
    ctx.log.debug('forecasting');
    return `${args.days}-day forecast for ${args.location}: sunny`;
  }

  @Tool({ description: 'Current weather', input: LookupArgs })
  current(args: LookupArgs): string {
    return `${args.city}: ${args.units === 'metric' ? '20°C' : '68°F'}`;
  }

  @Tool({ description: 'Lists the known cities', input: null })
  cities(): string {
    return 'London, Paris';
  }

  @Resource({ uriTemplate: 'weather://{city}', mimeType: 'text/plain' })
  report({ city }: { city: string }): string {
    return `Report for ${city}`;
  }

  @Prompt({ description: 'Plan a trip', input: Type.Object({ city: Type.String() }) })
  trip(args: { city: string }): string {
    return `Plan a day in ${args.city}`;
  }

  @Complete({ prompt: 'trip', argument: 'city' })
  cityNames(value: string): string[] {
    return ['London', 'Lisbon', 'Paris'].filter((c) => c.startsWith(value));
  }
}
