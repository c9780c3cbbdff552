// In-memory stdout and stderr for running reelay commands in-process.
import { PassThrough } from 'node:stream';

export function capture() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
}
