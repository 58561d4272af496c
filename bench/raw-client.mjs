/**
 * The floor: a hand-written JSON-RPC client over a child's stdin/stdout. Newline-delimited JSON with
 * `JSON.parse`/`JSON.stringify`, an id → callbacks map, the 2025 `initialize` handshake and nothing
 * else: no validation, no timeouts, no cancellation. Every other client is measured against this.
 */

import { spawn } from 'node:child_process';

export class RawClient {
  #child;
  #pending = new Map();
  #nextId = 0;
  #chunks = [];

  /** Spawns `command args` with `env` and performs the handshake. */
  static async connect(command, args, env) {
    const client = new RawClient(command, args, env);
    await client.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1.0.0' },
    });
    client.notify('notifications/initialized');
    return client;
  }

  constructor(command, args, env) {
    this.#child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
    this.#child.stdout.on('data', (chunk) => this.#onData(chunk));
  }

  request(method, params) {
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method, params) {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  callTool(name, args) {
    return this.request('tools/call', { name, arguments: args });
  }

  async listTools() {
    return (await this.request('tools/list', {})).tools;
  }

  #onData(chunk) {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      let line;
      if (this.#chunks.length === 0) line = chunk.toString('utf8', start, newline);
      else {
        this.#chunks.push(chunk.subarray(start, newline));
        line = Buffer.concat(this.#chunks).toString('utf8');
        this.#chunks = [];
      }
      this.#onMessage(JSON.parse(line));
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.#chunks.push(chunk.subarray(start));
  }

  #onMessage(message) {
    if (message.id === undefined) return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (message.error !== undefined) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  }

  close() {
    return new Promise((resolve) => {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) return resolve();
      this.#child.once('exit', () => resolve());
      this.#child.stdin.end();
    });
  }
}
