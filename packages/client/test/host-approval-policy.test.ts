import { jest } from '@jest/globals';
import { CallRefusedError } from '@decorum/client';
import { McpHost, type ApprovalPolicy, type HostServerOptions, type McpHostOptions, type ToolCall } from '@decorum/client/host';
import { FilesWizard } from '../../../examples/files-wizard/src/wizard.js';

/**
 * A host over the files example (in process) with `options`; what approve was asked, and the
 * tools/call requests that reached the server.
 */
async function filesHost(options: McpHostOptions, serverOptions: HostServerOptions = {}) {
  const host = new McpHost(options);
  await host.connect('files', { server: [FilesWizard] }, serverOptions);
  const sent = jest.spyOn(host.client('files').transport, 'request');
  const reached = () => sent.mock.calls.filter(([request]) => request.method === 'tools/call').map(([request]) => (request.params as { name: string }).name);
  return { host, reached };
}

/** An approve hook that always answers `answer`, noting the namespaced name of each call it is asked about. */
function approver(answer: boolean | { approved: boolean; reason?: string }) {
  const asked: string[] = [];
  return { asked, approve: (call: ToolCall) => (asked.push(call.tool), answer) };
}

// '/nowhere' is no file: delete_file answers with a tool error before it would ask or delete anything.
const NO_FILE = { path: '/nowhere' };

describe('McpHost approval policies', () => {
  test("'always': even a read-only call is put to approve, and refused it never reaches the server", async () => {
    const { asked, approve } = approver(false);
    const { host, reached } = await filesHost({ policy: 'always', approve });
    try {
      await expect(host.callTool('files_list_files')).rejects.toBeInstanceOf(CallRefusedError);
      expect(asked).toEqual(['files_list_files']);
      expect(reached()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  test("'never': a destructive call goes to the server without asking", async () => {
    const { asked, approve } = approver(false);
    const { host, reached } = await filesHost({ policy: 'never', approve });
    try {
      expect(await host.callTool('files_delete_file', NO_FILE)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No such file: /nowhere' }] });
      expect(asked).toEqual([]);
      expect(reached()).toEqual(['delete_file']);
    } finally {
      await host.close();
    }
  });

  test('a function decides per call, seeing the call as approve would', async () => {
    const { asked, approve } = approver(false);
    const judged: ToolCall[] = [];
    const policy: ApprovalPolicy = (call) => (judged.push(call), call.name === 'list_files');
    const { host, reached } = await filesHost({ policy, approve });
    try {
      await expect(host.callTool('files_list_files')).rejects.toBeInstanceOf(CallRefusedError);
      expect((await host.callTool('files_delete_file', NO_FILE)).isError).toBe(true);
      expect(asked).toEqual(['files_list_files']);
      expect(reached()).toEqual(['delete_file']);
      expect(judged).toEqual([
        expect.objectContaining({ server: 'files', tool: 'files_list_files', name: 'list_files', arguments: {}, annotations: { readOnlyHint: true } }),
        expect.objectContaining({
          server: 'files',
          tool: 'files_delete_file',
          name: 'delete_file',
          arguments: NO_FILE,
          annotations: { destructiveHint: true },
        }),
      ]);
    } finally {
      await host.close();
    }
  });

  test("the default ('unless-read-only'), the server's annotations trusted: read-only calls pass, others are asked; a refusal's reason is in the error", async () => {
    const { asked, approve } = approver({ approved: false, reason: 'not during the demo' });
    const { host, reached } = await filesHost({ approve }, { trustAnnotations: true });
    try {
      expect((await host.callTool('files_list_files')).isError).toBeFalsy();
      await expect(host.callTool('files_delete_file', NO_FILE)).rejects.toThrow(
        'The call to files_delete_file was not approved: not during the demo; it was not sent to the server',
      );
      expect(asked).toEqual(['files_delete_file']);
      expect(reached()).toEqual(['list_files']);
    } finally {
      await host.close();
    }
  });
});
