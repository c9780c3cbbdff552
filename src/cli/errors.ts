// Operator mistakes (a port in use, a database that does not answer, a bad file or option) end a
// command with one clear line on stderr and a non-zero exit, never a stack trace. Exit 2 is a usage
// error (fix the command line), 1 anything else.
import { isAppError } from '../errors.ts';

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A usage mistake: a bad option or value (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(message, 2);
}

/** A bad option or value caught while parsing the command line, as a one-line usage error. */
export function asUsageError(error: unknown): CliError {
  return usageError(firstLine(error instanceof Error ? error.message : String(error)));
}

type SystemError = Error & { code?: string; port?: number; address?: string; syscall?: string; path?: string };

/** The one line (without the `reelay <command>: ` lead) and exit status an error ends a command with. */
export function describeError(error: unknown): { line: string; exitCode: number } {
  if (error instanceof CliError) return { line: error.message, exitCode: error.exitCode };
  if (isAppError(error)) return { line: `${error.code}: ${error.message}`, exitCode: 1 };
  const e = (error ?? {}) as SystemError;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('ERR_PARSE_ARGS_')) return { line: firstLine(e.message), exitCode: 2 };
  if (code === 'EADDRINUSE' && e.syscall === 'listen') {
    return { line: `port ${e.port} on ${e.address} is already in use: stop what listens there or choose another port (--port, --mcp-port, --emulator-port)`, exitCode: 1 };
  }
  if (code === 'EACCES' && e.syscall === 'listen') {
    return { line: `not allowed to listen on port ${e.port} on ${e.address}: ports below 1024 need privileges; choose another port`, exitCode: 1 };
  }
  if (code === 'EADDRNOTAVAIL' && e.syscall === 'listen') {
    return { line: `cannot listen on ${e.address}: no such address on this machine (--host, REELAY_HOST)`, exitCode: 1 };
  }
  if ((code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') && e.path) {
    return { line: `cannot use ${e.path}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'it is a directory' : 'permission denied'}`, exitCode: 1 };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { line: firstLine(message) || 'unexpected error', exitCode: 1 };
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
}
