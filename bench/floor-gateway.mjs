#!/usr/bin/env node
/**
 * The gateway case's floor: a bare HTTP → stdio forwarder, written for the bench and nothing else
 * (`node bench/floor-gateway.mjs PORT TOKEN -- COMMAND ARGS…`). Per request: the bearer check, one
 * JSON parse, a write to the upstream's stdin under a fresh id, and the answer framed as one SSE event.
 * No MCP semantics: `initialize` is answered here (once per client, a fixed session id), the upstream
 * was initialized at start, and everything else is forwarded as it came. It is what any HTTP→stdio
 * gateway has to do at the least; the other rows are measured against it.
 */

import { spawn } from 'node:child_process';
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';

const [portArg, token, separator, command, ...args] = process.argv.slice(2);
if (separator !== '--' || command === undefined) {
  process.stderr.write('usage: node bench/floor-gateway.mjs PORT TOKEN -- COMMAND ARGS…\n');
  process.exit(2);
}
const expected = Buffer.from(`Bearer ${token}`);
const upstream = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const pending = new Map();
let nextId = 0;
let buffered = '';

upstream.stdout.setEncoding('utf8');
upstream.stdout.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    if (line === '') continue;
    const message = JSON.parse(line);
    const waiter = pending.get(message.id);
    if (waiter === undefined) continue;
    pending.delete(message.id);
    waiter(message);
  }
});
upstream.on('exit', () => process.exit(1));

function forward(message) {
  return new Promise((resolve) => {
    const id = ++nextId;
    pending.set(id, resolve);
    upstream.stdin.write(`${JSON.stringify({ ...message, id })}\n`);
  });
}

await forward({ jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'floor', version: '1.0.0' } } });
upstream.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);

const server = http.createServer((request, response) => {
  const authorization = Buffer.from(request.headers.authorization ?? '');
  if (authorization.length !== expected.length || !timingSafeEqual(authorization, expected)) {
    response.writeHead(401).end();
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (message.method === 'initialize') {
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'floor' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'floor', version: '1.0.0' } } }));
      return;
    }
    if (message.id === undefined) {
      upstream.stdin.write(`${JSON.stringify(message)}\n`);
      response.writeHead(202).end();
      return;
    }
    const answer = await forward(message);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(`event: message\ndata: ${JSON.stringify({ ...answer, id: message.id })}\n\n`);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(portArg), '127.0.0.1');
