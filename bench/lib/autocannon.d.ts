// Minimal types for the parts of autocannon's programmatic API the load worker uses.
declare module 'autocannon' {
  type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; total: number; p50: number; p90: number; p97_5: number; p99: number };
  export type Result = {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
  };
  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string; setupRequest?: (req: Request, context: unknown) => Request };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    timeout?: number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
