// Benchmark 4: an MCP tools/call against the REST call for the same (cached) data. Latency is
// measured one request at a time in this process; throughput under load by autocannon.
import { authHeaders, type BenchContext } from '../lib/context.ts';
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
  };
  ctx.log(`mcp/rest: p50 ${result.mcpP50Ms}/${result.restP50Ms} ms = ${result.latencyRatioP50}`);
  return result;
}
