// The envelope every platform JSON body carries (`extra`, `log_pb`, status fields) in the two
// dialects: camelCase endpoints send statusCode + status_code + status_msg, comments only snake.
import { randomBytes } from 'node:crypto';

/** Platform log ids look like `20251020060221357EDA4002EEAF98947D`: UTC time, then hex. */
export function newLogId(nowMs: number): string {
  const d = new Date(nowMs);
  const p = (n: number) => String(n).padStart(2, '0');
  const time = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  return time + randomBytes(10).toString('hex').toUpperCase();
}

export const STATUS_MESSAGES: Record<number, string> = {
  0: '',
  10000: '',
  10201: 'invalid parameters',
  10202: 'user not exist',
  10204: 'item doesn\'t exist',
  10205: 'challenge not exist',
  10216: 'item is private',
  10221: 'user banned',
  10222: 'user is private',
  10231: 'item is not available in your region',
};

export function camelBody(logid: string, nowMs: number, code: number, fields: Record<string, unknown>) {
  return {
    ...fields,
    extra: { fatal_item_ids: [], logid, now: nowMs },
    log_pb: { impr_id: logid },
    statusCode: code,
    status_code: code,
    status_msg: STATUS_MESSAGES[code] ?? '',
  };
}

/** Comment endpoints: snake_case only, `extra` as in the 2026 comment sample plus `logid`. */
export function snakeBody(logid: string, nowMs: number, code: number, fields: Record<string, unknown>) {
  return {
    ...fields,
    extra: { api_debug_info: null, fatal_item_ids: null, logid, now: nowMs },
    log_pb: { impr_id: logid },
    status_code: code,
    status_msg: STATUS_MESSAGES[code] ?? '',
  };
}
