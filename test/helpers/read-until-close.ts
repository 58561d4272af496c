/**
 * Reading a raw socket's whole answer in a test, for peers that close the connection after answering
 * (HAProxy's stats socket, an HTTP/1.0 server).
 */
import type { Socket } from 'node:net';

/** Resolves with all `socket` received once it closes; rejects on a socket error, or destroys it after `timeoutMs` and rejects with `timeoutMessage(soFar)`. */
export function readUntilClose(socket: Socket, timeoutMs: number, timeoutMessage: (soFar: string) => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(timeoutMessage(answer)));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}
