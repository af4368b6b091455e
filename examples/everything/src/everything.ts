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
 * Fixtures that need features Decorum does not have yet are listed in CONFORMANCE.md.
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
  text,
  type ToolContext,
} from '@decorum/core';

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

  @Prompt({ description: 'A prompt with an image', input: null })
  test_prompt_with_image() {
    return [{ role: 'user' as const, content: image(RED_PIXEL_PNG, 'image/png') }, 'Please analyze the image above.'];
  }
}
