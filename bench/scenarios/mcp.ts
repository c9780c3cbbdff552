// Benchmark 4: an MCP tools/call against the REST call for the same (cached) data. Latency is
// measured one request at a time in this process; throughput under load by autocannon. An MCP
// answer carries the data twice (structuredContent and a text block), so the same two measures
// are taken on bare node:http servers answering the very same bytes: the ratio any server of
// those bytes gets, the floor under reelay's own MCP/REST ratio.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authHeaders, type BenchContext } from '../lib/context.ts';
import { startBare } from '../lib/bare.ts';
import { runLoad, type LoadSummary } from '../lib/load.ts';
import { percentile, round, timedFetch } from '../lib/measure.ts';

export type McpResult = {
  tool: string;
  sequentialRequests: number;
  restP50Ms: number;
  restP99Ms: number;
  mcpP50Ms: number;
  mcpP99Ms: number;
  latencyRatioP50: number;
  latencyRatioP99: number;
  restLoad: LoadSummary;
  mcpLoad: LoadSummary;
  throughputRatio: number;
  restBytes: number;
  mcpBytes: number;
  /** The same measures on bare node:http servers answering the REST and the MCP bytes. */
  bare: { latencyRatioP50: number; throughputRatio: number; restLoad: LoadSummary; mcpLoad: LoadSummary };
};

async function sequential(count: number, call: () => Promise<{ status: number; ms: number }>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const { status, ms } = await call();
    if (status !== 200) throw new Error(`unexpected status ${status}`);
    times.push(ms);
  }
  return times;
}

export async function benchMcp(ctx: BenchContext, username: string, options = { requests: 500, connections: 16, durationSeconds: 6 }): Promise<McpResult> {
  const restUrl = `${ctx.service.restUrl}/v1/platform/users/${username}/videos?count=30`;
  const headers = authHeaders(ctx.key);
  const mcpHeaders = { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const args = { username, count: 30, projection_preset: 'full' };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'platform_get_user_videos', arguments: args } });
  const rest = () => timedFetch(restUrl, { headers });
  const mcp = async () => {
    const answer = await timedFetch(`${ctx.service.mcpUrl}/`, { method: 'POST', headers: mcpHeaders, body });
    if (answer.status === 200 && answer.body.includes('"isError":true')) return { ...answer, status: 599 };
    return answer;
  };
  await sequential(100, rest);
  await sequential(100, mcp);
  const restTimes = await sequential(options.requests, rest);
  const mcpTimes = await sequential(options.requests, mcp);
  const load = { connections: options.connections, durationSeconds: options.durationSeconds };
  const restLoad = await runLoad({ ...load, url: restUrl, headers });
  const mcpLoad = await runLoad({ ...load, url: `${ctx.service.mcpUrl}/`, method: 'POST', headers: mcpHeaders, body });
  const bare = await bareFloor(ctx, restUrl, headers, body, mcpHeaders, { ...options, ...load });
  const result: McpResult = {
    tool: 'platform_get_user_videos',
    sequentialRequests: options.requests,
    restP50Ms: round(percentile(restTimes, 50), 3),
    restP99Ms: round(percentile(restTimes, 99), 3),
    mcpP50Ms: round(percentile(mcpTimes, 50), 3),
    mcpP99Ms: round(percentile(mcpTimes, 99), 3),
    latencyRatioP50: round(percentile(mcpTimes, 50) / percentile(restTimes, 50), 3),
    latencyRatioP99: round(percentile(mcpTimes, 99) / percentile(restTimes, 99), 3),
    restLoad,
    mcpLoad,
    throughputRatio: round(mcpLoad.requestsPerSecond / restLoad.requestsPerSecond, 3),
    restBytes: bare.restBytes,
    mcpBytes: bare.mcpBytes,
    bare: { latencyRatioP50: bare.latencyRatioP50, throughputRatio: bare.throughputRatio, restLoad: bare.restLoad, mcpLoad: bare.mcpLoad },
  };
  ctx.log(
    `mcp/rest: p50 ${result.mcpP50Ms}/${result.restP50Ms} ms = ${result.latencyRatioP50}, load ${result.throughputRatio}; ` +
      `bare servers of the same bytes: p50 ${result.bare.latencyRatioP50}, load ${result.bare.throughputRatio}`,
  );
  return result;
}

/** The REST and MCP answers' bytes served by bare node:http processes, measured the same way. */
async function bareFloor(
  ctx: BenchContext,
  restUrl: string,
  headers: Record<string, string>,
  body: string,
  mcpHeaders: Record<string, string>,
  options: { requests: number; connections: number; durationSeconds: number },
) {
  const restAnswer = await timedFetch(restUrl, { headers });
  const mcpAnswer = await timedFetch(`${ctx.service.mcpUrl}/`, { method: 'POST', headers: mcpHeaders, body });
  const restFile = join(ctx.workDir, 'mcp-rest-answer.json');
  const mcpFile = join(ctx.workDir, 'mcp-mcp-answer.json');
  writeFileSync(restFile, restAnswer.body);
  writeFileSync(mcpFile, mcpAnswer.body);
  const restBare = await startBare(restFile);
  const mcpBare = await startBare(mcpFile, 'application/json');
  try {
    const restCall = () => timedFetch(restBare.url, {});
    const mcpCall = () => timedFetch(mcpBare.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await sequential(100, restCall);
    await sequential(100, mcpCall);
    const restTimes = await sequential(options.requests, restCall);
    const mcpTimes = await sequential(options.requests, mcpCall);
    const load = { connections: options.connections, durationSeconds: options.durationSeconds };
    const restLoad = await runLoad({ ...load, url: restBare.url });
    const mcpLoad = await runLoad({ ...load, url: mcpBare.url, method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return {
      restBytes: Buffer.byteLength(restAnswer.body),
      mcpBytes: Buffer.byteLength(mcpAnswer.body),
      latencyRatioP50: round(percentile(mcpTimes, 50) / percentile(restTimes, 50), 3),
      throughputRatio: round(mcpLoad.requestsPerSecond / restLoad.requestsPerSecond, 3),
      restLoad,
      mcpLoad,
    };
  } finally {
    restBare.stop();
    mcpBare.stop();
  }
}
