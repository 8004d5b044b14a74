import { isDeepStrictEqual } from 'node:util';
import {
  DRIVER_ARTIFACTS,
  type Manifest,
  type McpServerSpec,
  type RehearsalMcpCall,
} from '../../../src-shared/manifest';
import { toPart } from '../../drivers';
import type { Tool, ToolOutcome } from '../tool-types';
import type { McpToolbox } from './toolbox';
import { modelToolNames } from './names';

// MCP calls played back from a recording, the way a rehearsal plays back a model: the servers of
// capabilities.mcp.servers are never started, and each call is answered with what the server
// answered to the same tool and arguments when the run was recorded. The manifest still decides
// what may be called: a server taken out of it, or a tool its `tools` no longer lists, is not
// offered, so a regression test notices a permission taken back. A call the recording has no
// answer for fails (the model reads why) and is traced as a divergence from the recording.

export interface McpPlaybackDeps {
  servers: readonly McpServerSpec[];
  calls: readonly RehearsalMcpCall[];
}

/** A rehearsal made from a recording (or given recorded MCP answers) plays MCP calls back. */
export function playsBackMcp(manifest: Manifest): boolean {
  const rehearsal = manifest.inference.rehearsal;
  const driver = (DRIVER_ARTIFACTS as Record<string, string>)[manifest.inference.driver.artifact];
  return driver === 'rehearsal' && (rehearsal?.recorded_from !== undefined || rehearsal?.mcp_calls !== undefined);
}

function playedTool(spec: McpServerSpec, modelName: string, tool: string, recorded: readonly RehearsalMcpCall[]): Tool {
  // Several calls with the same arguments are answered in recorded order; past the last, the last
  // answer again (a task replayed twice asks twice).
  const used = new Set<RehearsalMcpCall>();
  return {
    spec: {
      name: modelName,
      description: `(tool ${tool} of the MCP server ${spec.name}, played back from a recording)`,
      parameters: { type: 'object' },
    },
    traceFields: { mcp_server: spec.name, mcp_tool: tool },
    async run(args, ctx): Promise<ToolOutcome> {
      const same = recorded.filter((c) => isDeepStrictEqual(c.arguments, args));
      const answer = same.find((c) => !used.has(c)) ?? same.at(-1);
      if (!answer) {
        const reason = `the recording has no answer of MCP server "${spec.name}" to ${tool} with these arguments`;
        ctx.trace({ event_type: 'rehearsal_diverged', reason, mcp_server: spec.name, mcp_tool: tool });
        ctx.traceResult?.({ played_back: true, failure: 'mcp_not_recorded' });
        return { ok: false, error: `mcp_not_recorded: ${reason} (a rehearsal starts no MCP server)` };
      }
      used.add(answer);
      const parts = (answer.parts ?? []).map(toPart);
      ctx.traceResult?.({
        played_back: true,
        duration_ms: 0,
        bytes: Buffer.byteLength(answer.result),
        ...(parts.length ? { parts: parts.length, result_parts: answer.parts } : {}),
      });
      if (!answer.ok) return { ok: false, error: answer.result };
      return { ok: true, content: answer.result, ...(parts.length ? { parts } : {}) };
    },
  };
}

/** The toolbox of a session whose MCP calls are played back: the same surface as the live one. */
export function createMcpPlayback(deps: McpPlaybackDeps): McpToolbox {
  const tools: Tool[] = [];
  for (const spec of deps.servers) {
    const ofServer = deps.calls.filter((c) => c.server === spec.name);
    const names = [...new Set(ofServer.map((c) => c.tool))].filter((t) => !spec.tools || spec.tools.includes(t));
    for (const [modelName, tool] of modelToolNames(spec.name, names)) {
      tools.push(
        playedTool(
          spec,
          modelName,
          tool,
          ofServer.filter((c) => c.tool === tool),
        ),
      );
    }
  }
  return {
    start() {},
    tools: async () => tools,
    residue: () => [],
    dispose: async () => {},
  };
}
