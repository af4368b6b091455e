/**
 * The "everything" example: every fixture that the MCP conformance suite
 * (`@modelcontextprotocol/conformance`, 2026-07-28 server scenarios) calls by name, written with
 * Decorum's decorators. It doubles as a showcase of the authoring surface: tools returning each
 * content type, errors, progress, logging, a client-capability check, a JSON Schema 2020-12 input,
 * an argument mirrored into an HTTP header, fixed and templated resources (text and binary), and
 * prompts with arguments, images and embedded resources.
 *
 * Serve it over HTTP with
 *   `mcp-serve examples/everything/dist/everything.js --http --port 3000`
 * and point the suite at `http://127.0.0.1:3000/mcp` (`npm run conformance` does all of that).
 *
 * The `test_input_required_result_*` fixtures (and `test_streaming_elicitation`) ask through MRTR:
 * `ctx.elicit`, `ctx.sample` and `ctx.roots` with the input keys the suite expects. Fixtures that
 * need features Decorum does not have yet are listed in CONFORMANCE.md.
 */
import 'reflect-metadata';
import { crc32, deflateSync } from 'node:zlib';
import { IsString } from 'class-validator';
import { Type } from 'typebox';
import {
  Complete,
  Field,
  McpHeader,
  McpServer,
  MissingRequiredClientCapabilityError,
  Prompt,
  Resource,
  Tool,
  ToolError,
  audio,
  embeddedResource,
  image,
  serverOf,
  text,
  type CreateMessageParams,
  type CreateMessageResult,
  type PromptContext,
  type Root,
  type ToolContext,
} from '@decorum/core';

// The Tasks extension's fixtures (greet, slow_compute, failing_job, …), served with this server.
export { TaskFixtures } from './task-fixtures.js';

// ---------------------------------------------------------------------------------------------
// Media: a 1x1 red PNG and a short silent WAV, built from their format specs at load time.
// ---------------------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1x1 PNG of one RGB pixel. */
function onePixelPng(r: number, g: number, b: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour (RGB)
  // compression, filter and interlace methods stay 0
  const scanline = Buffer.from([0, r, g, b]); // filter byte "none", then the pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A mono 16-bit PCM WAV of `samples` silent samples at `rate` Hz. */
function silentWav(samples: number, rate = 8000): Buffer {
  const dataBytes = samples * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'latin1');
  wav.write('fmt ', 12, 'latin1');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(dataBytes, 40);
  return wav;
}

export const RED_PIXEL_PNG = onePixelPng(255, 0, 0);
export const SILENT_WAV = silentWav(8);

/** Waits `ms`, or less when the request is cancelled. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Argument DTOs (class-validator) and schemas (TypeBox)
// ---------------------------------------------------------------------------------------------

/** Arguments of `test_prompt_with_arguments`. */
export class PromptArgs {
  @Field({ description: 'First test argument' })
  @IsString()
  arg1!: string;

  @Field({ description: 'Second test argument' })
  @IsString()
  arg2!: string;
}

/** Arguments of `test_prompt_with_embedded_resource`. */
export class EmbeddedResourceArgs {
  @Field({ description: 'URI of the resource to embed' })
  @IsString()
  resourceUri!: string;
}

/** Arguments of `test_x_mcp_header`: `region` is mirrored into the `Mcp-Param-Region` header. */
export class RegionArgs {
  @McpHeader('Region')
  @Field({ description: 'Region to report; sent by HTTP clients as the Mcp-Param-Region header too' })
  @IsString()
  region!: string;
}

/**
 * A JSON Schema 2020-12 input using `$defs` with an `$anchor`, `$ref`, composition (`allOf`/`anyOf`)
 * and conditional (`if`/`then`/`else`) keywords, and `additionalProperties: false`. TypeBox's
 * `Type.Unsafe` carries a hand-written schema through unchanged (it is still validated).
 */
export const ContactSchema = Type.Unsafe<{
  name?: string;
  address?: { street?: string; city?: string };
  contactMethod?: 'phone' | 'email';
  phone?: string;
  email?: string;
}>({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
});

// ---------------------------------------------------------------------------------------------
// MRTR: the forms, sampling requests and helpers of the input-required fixtures
// ---------------------------------------------------------------------------------------------

/** A one-field form of a required string (`{ [field]: string }`). */
function textForm(field: string) {
  return { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] } as const;
}

/** The `{ ok: boolean }` confirmation form. */
const CONFIRM_FORM = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;

/** The form of `test_elicitation`. */
const USER_FORM = {
  type: 'object',
  properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
  required: ['username', 'email'],
} as const;

/** SEP-1034: a default for every primitive type. */
const DEFAULTS_FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
} as const;

/** SEP-1330: untitled and titled single- and multi-select enums, and the deprecated enumNames. */
const ENUMS_FORM = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
} as const;

/** A single-message text sampling request. */
function askModel(prompt: string, maxTokens: number): CreateMessageParams {
  return { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens };
}

/** The text of a sampled message (its first text block). */
function sampledText(result: CreateMessageResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const first = blocks.find((b) => b.type === 'text');
  return typeof first?.text === 'string' ? first.text : '(no text)';
}

function describeRoots(roots: Root[]): string {
  return roots.length === 0 ? '(no roots)' : roots.map((r) => (r.name ? `${r.name} (${r.uri})` : r.uri)).join(', ');
}

/**
 * Added and removed by `test_trigger_tool_change` / `test_trigger_prompt_change` to change the lists.
 * Not exported: `mcp-serve` serves every exported server class from the start.
 */
@McpServer({ name: 'decorum-everything-added', version: '0.1.0' })
class AddedFixtures {
  @Tool({ description: 'Added at run time by test_trigger_tool_change', input: null })
  test_added_tool() {
    return 'This tool was added at run time.';
  }
}

@McpServer({ name: 'decorum-everything-added-prompt', version: '0.1.0' })
class AddedPromptFixtures {
  @Prompt({ description: 'Added at run time by test_trigger_prompt_change', input: null })
  test_added_prompt() {
    return 'This prompt was added at run time.';
  }
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

@McpServer({
  name: 'decorum-everything',
  version: '0.1.0',
  instructions: 'Fixtures of the MCP conformance suite: tools, resources and prompts named test_*.',
})
export class EverythingServer {
  // ----- tools: content types -----

  @Tool({ description: 'Tests simple text content response', input: null })
  test_simple_text() {
    return 'This is a simple text response for testing.';
  }

  @Tool({ description: 'Tests image content response', input: null })
  test_image_content() {
    return image(RED_PIXEL_PNG, 'image/png');
  }

  @Tool({ description: 'Tests audio content response', input: null })
  test_audio_content() {
    return audio(SILENT_WAV, 'audio/wav');
  }

  @Tool({ description: 'Tests embedded resource content response', input: null })
  test_embedded_resource() {
    return embeddedResource('test://embedded-resource', 'This is an embedded resource content.', 'text/plain');
  }

  @Tool({ description: 'Tests response with multiple content types (text, image, resource)', input: null })
  test_multiple_content_types() {
    return [
      text('Multiple content types test:'),
      image(RED_PIXEL_PNG, 'image/png'),
      embeddedResource('test://mixed-content-resource', JSON.stringify({ test: 'data', value: 123 }), 'application/json'),
    ];
  }

  // ----- tools: errors, progress, logging, capabilities -----

  @Tool({ description: 'Tests error response handling', input: null })
  test_error_handling(): never {
    throw new ToolError('This tool intentionally returns an error for testing');
  }

  @Tool({ description: 'Tests tool that reports progress notifications', input: null })
  async test_tool_with_progress(_args: unknown, ctx: ToolContext) {
    for (const step of [0, 50, 100]) {
      ctx.progress(step, 100, `Completed step ${step} of 100`);
      if (step < 100) await pause(50, ctx.signal);
    }
    return 'Progress reported: 0, 50 and 100 of 100.';
  }

  @Tool({ description: 'Logs three messages; they reach the client only when the request asked for a log level', input: null })
  async test_logging_tool(_args: unknown, ctx: ToolContext) {
    ctx.log.info('Tool execution started');
    await pause(50, ctx.signal);
    ctx.log.info('Tool processing data');
    await pause(50, ctx.signal);
    ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  // ----- tools: asking the client, as the 2025-11-25 scenarios name them -----
  // The same handlers serve both eras: a live request on a legacy session, an MRTR round on modern.

  @Tool({ description: 'Sends three log messages at info level, ~50 ms apart', input: null })
  test_tool_with_logging(args: unknown, ctx: ToolContext) {
    return this.test_logging_tool(args, ctx);
  }

  @Tool({ description: "Asks the client's model to answer a prompt (sampling/createMessage)", input: Type.Object({ prompt: Type.String({ description: 'The prompt to send to the LLM' }) }) })
  async test_sampling(args: { prompt: string }, ctx: ToolContext) {
    const answer = await ctx.sample(askModel(args.prompt, 100));
    return `LLM response: ${sampledText(answer)}`;
  }

  @Tool({ description: 'Asks the user for a username and an email (elicitation/create)', input: Type.Object({ message: Type.String({ description: 'The message to show the user' }) }) })
  async test_elicitation(args: { message: string }, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: args.message, requestedSchema: USER_FORM });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({ description: 'Asks for a form whose every primitive field has a default (SEP-1034)', input: null })
  async test_elicitation_sep1034_defaults(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: 'Please review the defaults', requestedSchema: DEFAULTS_FORM });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({ description: 'Asks for a form with all five enum variants (SEP-1330)', input: null })
  async test_elicitation_sep1330_enums(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: 'Please choose', requestedSchema: ENUMS_FORM });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({
    description: "Needs the client's sampling capability: rejects with -32021 when the request does not declare it",
    input: null,
  })
  test_missing_capability(_args: unknown, ctx: ToolContext) {
    if (!ctx.client.capabilities.sampling) {
      throw new MissingRequiredClientCapabilityError('test_missing_capability needs the sampling capability', { sampling: {} });
    }
    return 'The client declared the sampling capability.';
  }

  // ----- tools: schemas and headers -----

  @Tool({ name: 'json_schema_2020_12_tool', description: 'Tool with JSON Schema 2020-12 features', input: ContactSchema })
  json_schema_2020_12_tool(args: { name?: string; contactMethod?: string }) {
    return `Contact ${args.name ?? '(unnamed)'} via ${args.contactMethod ?? 'email'}.`;
  }

  @Tool({ description: 'Echoes its region argument, which HTTP clients also send as the Mcp-Param-Region header' })
  test_x_mcp_header(args: RegionArgs) {
    return `Region: ${args.region}`;
  }

  // ----- tools: list changes (subscriptions/listen) -----

  @Tool({ description: 'Adds test_added_tool, or removes it when present: the tool list changes either way', input: null })
  test_trigger_tool_change() {
    const { live } = serverOf(this);
    if (live.tools.remove('test_added_tool')) return 'Removed test_added_tool.';
    live.add(AddedFixtures);
    return 'Added test_added_tool.';
  }

  @Tool({ description: 'Adds test_added_prompt, or removes it when present: the prompt list changes either way', input: null })
  test_trigger_prompt_change() {
    const { live } = serverOf(this);
    if (live.prompts.remove('test_added_prompt')) return 'Removed test_added_prompt.';
    live.add(AddedPromptFixtures);
    return 'Added test_added_prompt.';
  }

  // ----- tools: MRTR (input_required) -----

  @Tool({ description: 'MRTR: asks the user their name (elicitation "user_name"), then greets them', input: null })
  async test_input_required_result_elicitation(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: textForm('name') }, { key: 'user_name' });
    if (answer.action !== 'accept') return `No name given (${answer.action}).`;
    return `Hello, ${answer.content!.name}!`;
  }

  @Tool({ description: "MRTR: asks the client's model a question (sampling \"capital_question\")", input: null })
  async test_input_required_result_sampling(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.sample(askModel('What is the capital of France?', 100), { key: 'capital_question' });
    return `Sampling response: ${sampledText(answer)}`;
  }

  @Tool({ description: 'MRTR: asks the client for its roots (roots/list "client_roots")', input: null })
  async test_input_required_result_list_roots(_args: unknown, ctx: ToolContext) {
    const roots = await ctx.roots({ key: 'client_roots' });
    return `Client roots: ${describeRoots(roots)}`;
  }

  @Tool({ description: 'MRTR: asks for a confirmation ("confirm"); the retry must echo the sealed requestState', input: null })
  async test_input_required_result_request_state(_args: unknown, ctx: ToolContext) {
    // Journaled in round 1: getting round 1's request id back proves the sealed requestState made the round trip.
    const issuedBy = await ctx.once('issued-by', () => ctx.requestId);
    const answer = await ctx.elicit<{ ok: boolean }>({ message: 'Please confirm', requestedSchema: CONFIRM_FORM }, { key: 'confirm' });
    const state = issuedBy !== ctx.requestId ? 'state-ok' : 'state-missing';
    return `${state}: confirmation ${answer.action}${answer.action === 'accept' ? ` (ok=${answer.content!.ok})` : ''}`;
  }

  @Tool({ description: 'MRTR: asks for a name, a sampled greeting and the roots in one round', input: null })
  async test_input_required_result_multiple_inputs(_args: unknown, ctx: ToolContext) {
    // Asked together (not one after the other), so the three land in one input_required.
    const [who, greeting, roots] = await Promise.all([
      ctx.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: textForm('name') }, { key: 'user_name' }),
      ctx.sample(askModel('Generate a greeting', 50), { key: 'greeting' }),
      ctx.roots({ key: 'client_roots' }),
    ]);
    const name = who.action === 'accept' ? who.content!.name : '(anonymous)';
    return `Name: ${name}; greeting: ${sampledText(greeting)}; roots: ${describeRoots(roots)}`;
  }

  @Tool({ description: 'MRTR: two questions in two rounds ("step1", then "step2")', input: null })
  async test_input_required_result_multi_round(_args: unknown, ctx: ToolContext) {
    const step1 = await ctx.elicit<{ name: string }>({ message: 'Step 1: What is your name?', requestedSchema: textForm('name') }, { key: 'step1' });
    if (step1.action !== 'accept') return `Stopped at step 1 (${step1.action}).`;
    const step2 = await ctx.elicit<{ color: string }>({ message: 'Step 2: What is your favorite color?', requestedSchema: textForm('color') }, { key: 'step2' });
    if (step2.action !== 'accept') return `Stopped at step 2 (${step2.action}).`;
    return `${step1.content!.name}'s favorite color is ${step2.content!.color}.`;
  }

  @Tool({ description: 'MRTR: asks for a confirmation; a tampered requestState is rejected with -32602', input: null })
  async test_input_required_result_tampered_state(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit<{ ok: boolean }>({ message: 'Please confirm', requestedSchema: CONFIRM_FORM }, { key: 'confirm' });
    return `requestState verified; confirmation ${answer.action}.`;
  }

  @Tool({ description: 'MRTR: asks only for what the client declared (elicitation, sampling, roots), in one round', input: null })
  async test_input_required_result_capabilities(_args: unknown, ctx: ToolContext) {
    const [who, model, roots] = await Promise.all([
      ctx.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: textForm('name') }, { key: 'user_name', optional: true }),
      ctx.sample(askModel('Generate a greeting', 50), { key: 'greeting', optional: true }),
      ctx.roots({ key: 'client_roots', optional: true }),
    ]);
    const parts = [
      who ? `name: ${who.action === 'accept' ? who.content!.name : who.action}` : 'elicitation not declared',
      model ? `greeting: ${sampledText(model)}` : 'sampling not declared',
      roots ? `roots: ${describeRoots(roots)}` : 'roots not declared',
    ];
    return parts.join('; ');
  }

  @Tool({
    description: 'Reports progress, then asks for a confirmation: the response stream carries only notifications and the input_required result',
    input: null,
  })
  async test_streaming_elicitation(_args: unknown, ctx: ToolContext) {
    ctx.progress(0, 1, 'Waiting for confirmation');
    const answer = await ctx.elicit<{ ok: boolean }>({ message: 'Please confirm', requestedSchema: CONFIRM_FORM }, { key: 'confirm' });
    ctx.progress(1, 1, 'Confirmed');
    return `Streaming elicitation: ${answer.action}${answer.action === 'accept' ? ` (ok=${answer.content!.ok})` : ''}`;
  }

  // ----- resources -----

  @Resource({ uri: 'test://static-text', mimeType: 'text/plain', description: 'A static text resource' })
  static_text() {
    return 'This is the content of the static text resource.';
  }

  @Resource({ uri: 'test://static-binary', mimeType: 'image/png', description: 'A static binary resource (a 1x1 PNG)' })
  static_binary() {
    return RED_PIXEL_PNG;
  }

  @Resource({ uriTemplate: 'test://template/{id}/data', mimeType: 'application/json', description: 'A templated resource: data for one id' })
  template_data({ id }: { id: string }) {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }

  // ----- prompts -----

  @Prompt({ description: 'A simple prompt without arguments', input: null })
  test_simple_prompt() {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ description: 'A prompt with two required arguments' })
  test_prompt_with_arguments(args: PromptArgs) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  /** `completion/complete` for arg1 of `test_prompt_with_arguments` (the completion-complete scenario). */
  @Complete({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  complete_arg1(value: string) {
    return ['test', 'testing', 'tested', 'other'].filter((v) => v.startsWith(value));
  }

  @Prompt({ description: 'A prompt that embeds a resource' })
  test_prompt_with_embedded_resource(args: EmbeddedResourceArgs) {
    return [
      { role: 'user' as const, content: embeddedResource(args.resourceUri, 'Embedded resource content for testing.', 'text/plain') },
      'Please process the embedded resource above.',
    ];
  }

  @Prompt({ description: 'MRTR on prompts/get: asks what context to use ("user_context"), then builds the prompt', input: null })
  async test_input_required_result_prompt(_args: unknown, ctx: PromptContext) {
    const answer = await ctx.elicit<{ context: string }>(
      { message: 'What context should the prompt use?', requestedSchema: textForm('context') },
      { key: 'user_context' },
    );
    const context = answer.action === 'accept' ? answer.content!.context : '(none)';
    return `Please answer with this context in mind: ${context}`;
  }

  @Prompt({ description: 'A prompt with an image', input: null })
  test_prompt_with_image() {
    return [{ role: 'user' as const, content: image(RED_PIXEL_PNG, 'image/png') }, 'Please analyze the image above.'];
  }
}
