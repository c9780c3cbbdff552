// Last-resort handlers for the process: an unhandled rejection or uncaught exception is logged at
// fatal level, with secrets scrubbed from its text, and the process exits 1 (its state is unknown).

type CrashLogger = { fatal(obj: object, msg: string): void };
type ProcessEvents = { on(event: 'unhandledRejection' | 'uncaughtException', listener: (reason: unknown) => void): unknown };

/**
 * Secrets that can appear in error text: API keys, OAuth secrets, codes and tokens, Bearer
 * credentials, and passwords in URLs (database, Redis, proxies).
 */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\brly[a-z]*_[A-Za-z0-9_-]{16,}/g, '[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/(\/\/)[^/\s:@]*:[^/\s@]*@/g, '$1[redacted]@'],
  [/\b(msToken|ttwid|tt_chain_token|sessionid|password|secret|token)=([^&;\s]+)/gi, '$1=[redacted]'],
];

export function scrubSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** The parts of a thrown value worth logging, scrubbed. */
export function describeCrash(reason: unknown): { type: string; message: string; stack?: string } {
  if (reason instanceof Error) {
    return { type: reason.name, message: scrubSecrets(reason.message), ...(reason.stack ? { stack: scrubSecrets(reason.stack) } : {}) };
  }
  return { type: typeof reason, message: scrubSecrets(String(reason)) };
}

export function installCrashHandlers(target: ProcessEvents, logger: CrashLogger, exit: (code: number) => void): void {
  let crashed = false;
  const crash = (what: string) => (reason: unknown) => {
    logger.fatal({ err: describeCrash(reason) }, what);
    // A second failure while exiting is logged too, but exits only once.
    if (crashed) return;
    crashed = true;
    exit(1);
  };
  target.on('unhandledRejection', crash('unhandled rejection'));
  target.on('uncaughtException', crash('uncaught exception'));
}
