/**
 * One adapter per client library. Each runs the library's own idiomatic path: "connect these servers
 * and give me tools" (with the library's tool conversion), then invokes the converted `echo` tool the
 * way an application would (LangChain `tool.invoke`, Mastra `tool.execute`, AI SDK `tool.execute`,
 * SDK / mcp-use / switchboard `callTool`).
 *
 * `load()` imports the library (timed as "import"); `connect(servers, options)` returns a handle with
 * `echo(text, serverIndex)`, `sleep(ms)`, `list()` (one listing through the library, returning the tool
 * count), optionally `refreshCatalog()`, and `close()`.
 *
 * A server is `{ name, command, args }`; every library spawns it with the same minimal environment.
 */

/** The variables every client gives its servers (what the SDK's getDefaultEnvironment passes). */
export const SERVER_ENV_KEYS = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export function serverEnv() {
  const env = {};
  for (const key of SERVER_ENV_KEYS) if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

/** The tool of `server` called `tool` in a list of converted tool names, whatever prefix the library uses. */
function pickName(names, server, tool, serverCount) {
  const candidates = serverCount === 1 ? [tool] : [];
  candidates.push(`${server}__${tool}`, `${server}_${tool}`, `mcp__${server}__${tool}`, `${server}.${tool}`);
  for (const candidate of candidates) if (names.includes(candidate)) return candidate;
  throw new Error(`no "${tool}" tool for server ${server} among ${names.slice(0, 8).join(', ')}…`);
}

const clients = {
  /** The floor: bench/raw-client.mjs. */
  raw: {
    label: 'raw pipe',
    packages: 'none (bench/raw-client.mjs)',
    async load() {
      this.RawClient = (await import('./raw-client.mjs')).RawClient;
    },
    async connect(servers) {
      const connections = await Promise.all(
        servers.map(async (server) => {
          const client = await this.RawClient.connect(server.command, server.args, serverEnv());
          await client.listTools();
          return client;
        }),
      );
      return {
        echo: (text, index = 0) => connections[index].callTool('echo', { text }),
        sleep: (ms) => connections[0].callTool('sleep', { ms }),
        list: async () => (await connections[0].listTools()).length,
        close: () => Promise.all(connections.map((client) => client.close())),
      };
    },
  },

  /** SDK v1 `Client` + `StdioClientTransport`, one per server. */
  sdk: officialSdkClient('SDK v1 Client', '@modelcontextprotocol/sdk 1.32.2', () => import('@modelcontextprotocol/sdk/client/index.js'), () => import('@modelcontextprotocol/sdk/client/stdio.js')),

  /** SDK v2 `@modelcontextprotocol/client`, the line this project builds on (same API for this use). */
  sdk2: officialSdkClient('SDK v2 Client', '@modelcontextprotocol/client 2.4.0', () => import('@modelcontextprotocol/client'), () => import('@modelcontextprotocol/client/stdio')),

  /** Ours, one server per `ServerConnection`. */
  connection: {
    label: 'switchboard ServerConnection',
    packages: 'mcp-switchboard (dist/)',
    async load() {
      this.ServerConnection = (await import('mcp-switchboard')).ServerConnection;
    },
    async connect(servers) {
      const connections = await Promise.all(
        servers.map(async (server) => {
          const connection = await this.ServerConnection.open({
            name: server.name,
            type: 'stdio',
            command: server.command,
            args: server.args,
            env: {},
            inheritEnv: [],
            enabled: true,
            startupTimeoutMs: 30_000,
            callTimeoutMs: 60_000,
            protocol: 'legacy',
          });
          await connection.listTools();
          return connection;
        }),
      );
      return {
        echo: (text, index = 0) => connections[index].callTool('echo', { text }),
        sleep: (ms) => connections[0].callTool('sleep', { ms }),
        list: async () => (await connections[0].listTools()).length,
        close: () => Promise.all(connections.map((connection) => connection.close())),
      };
    },
  },

  /** Ours, every server through one `MultiServerClient` (argument validation, events, routing). */
  multi: {
    label: 'switchboard MultiServerClient',
    packages: 'mcp-switchboard (dist/)',
    async load() {
      this.MultiServerClient = (await import('mcp-switchboard')).MultiServerClient;
    },
    async connect(servers, options = {}) {
      const mcpServers = {};
      for (const server of servers) mcpServers[server.name] = { command: server.command, args: server.args, timeout: 30 };
      const client = await this.MultiServerClient.connect({ mcpServers }, options.listChangedImmediately ? { listChangedDebounceMs: 0 } : {});
      const names = client.listTools().map((tool) => tool.name);
      const echoNames = servers.map((server) => pickName(names, server.name, 'echo', servers.length));
      const sleepName = pickName(names, servers[0].name, 'sleep', servers.length);
      const notifyName = pickName(names, servers[0].name, 'notify_tools_changed', servers.length);
      return {
        echo: (text, index = 0) => client.callTool(echoNames[index], { text }),
        sleep: (ms) => client.callTool(sleepName, { ms }),
        // The catalog is cached: listing is free. What costs is a refresh, timed by refreshCatalog().
        list: async () => client.listTools().length,
        /** Has the server announce a change and times re-listing + rebuilding the catalog. */
        async refreshCatalog() {
          const connection = client.connection(servers[0].name);
          let started;
          let cpu;
          connection.once('list-changed', () => {
            started = performance.now();
            cpu = process.cpuUsage();
          });
          const changed = new Promise((resolve) => client.once('tools-changed', resolve));
          await client.callTool(notifyName, {});
          await changed;
          const usage = process.cpuUsage(cpu);
          return { ms: performance.now() - started, cpuMs: (usage.user + usage.system) / 1000, count: client.listTools().length };
        },
        close: () => client.close(),
      };
    },
  },

  /** LangChain.js `MultiServerMCPClient`, tools converted to `DynamicStructuredTool`. */
  langchain: {
    label: 'LangChain mcp-adapters',
    packages: '@langchain/mcp-adapters 1.1.4, @langchain/core 1.4.0, @langchain/langgraph 1.7.3 (SDK v1 1.32.2)',
    async load() {
      const module = await import('@langchain/mcp-adapters');
      this.MultiServerMCPClient = module.MultiServerMCPClient;
      this.loadMcpTools = module.loadMcpTools;
    },
    async connect(servers) {
      const mcpServers = {};
      for (const server of servers) mcpServers[server.name] = { transport: 'stdio', command: server.command, args: server.args, env: serverEnv() };
      const client = new this.MultiServerMCPClient({ mcpServers, prefixToolNameWithServerName: servers.length > 1, throwOnLoadError: true });
      const tools = await client.getTools();
      const names = tools.map((tool) => tool.name);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const echoTools = servers.map((server) => byName.get(pickName(names, server.name, 'echo', servers.length)));
      const sleepTool = byName.get(pickName(names, servers[0].name, 'sleep', servers.length));
      const sdkClient = await client.getClient(servers[0].name);
      return {
        echo: (text, index = 0) => echoTools[index].invoke({ text }),
        sleep: (ms) => sleepTool.invoke({ ms }),
        list: async () => (await this.loadMcpTools(servers[0].name, sdkClient)).length,
        close: () => client.close(),
      };
    },
  },

  /** Mastra `MCPClient` 0.14 (the newest that declares Node 20), tools converted to Mastra tools. */
  mastra: {
    label: 'Mastra MCPClient',
    packages: '@mastra/mcp 0.14.5, @mastra/core 0.24.9 (SDK v1 1.32.2)',
    async load() {
      this.MCPClient = (await import('@mastra/mcp')).MCPClient;
    },
    async connect(servers) {
      const config = {};
      for (const server of servers) config[server.name] = { command: server.command, args: server.args, env: serverEnv() };
      const client = new this.MCPClient({ id: `bench-${process.pid}`, servers: config, timeout: 60_000 });
      const tools = await client.getTools();
      const names = Object.keys(tools);
      const echoTools = servers.map((server) => tools[pickName(names, server.name, 'echo', 2)]);
      const sleepTool = tools[pickName(names, servers[0].name, 'sleep', 2)];
      return {
        echo: (text, index = 0) => echoTools[index].execute({ context: { text } }),
        sleep: (ms) => sleepTool.execute({ context: { ms } }),
        list: async () => Object.keys((await client.getToolsets())[servers[0].name]).length,
        close: () => client.disconnect(),
      };
    },
  },

  /** Vercel AI SDK `createMCPClient`, one per server (it has no multi-server manager). */
  aisdk: {
    label: 'AI SDK MCP client',
    packages: '@ai-sdk/mcp 1.0.102 (own JSON-RPC client)',
    async load() {
      this.createMCPClient = (await import('@ai-sdk/mcp')).createMCPClient;
      this.Transport = (await import('@ai-sdk/mcp/mcp-stdio')).Experimental_StdioMCPTransport;
    },
    async connect(servers) {
      const connections = await Promise.all(
        servers.map(async (server) => {
          const client = await this.createMCPClient({ transport: new this.Transport({ command: server.command, args: server.args, env: serverEnv() }) });
          const tools = await client.tools();
          return { client, tools };
        }),
      );
      const options = { toolCallId: 'bench', messages: [] };
      return {
        echo: (text, index = 0) => connections[index].tools.echo.execute({ text }, options),
        sleep: (ms) => connections[0].tools.sleep.execute({ ms }, options),
        list: async () => Object.keys(await connections[0].client.tools()).length,
        close: () => Promise.all(connections.map(({ client }) => client.close())),
      };
    },
  },

  /** mcp-use 1.34 (the last release with a client), `createAllSessions` then `session.callTool`. */
  mcpuse: {
    label: 'mcp-use MCPClient',
    packages: 'mcp-use 1.34.6 (SDK v1 1.26.0)',
    async load() {
      process.env.MCP_USE_ANONYMIZED_TELEMETRY = 'false';
      this.MCPClient = (await import('mcp-use/client')).MCPClient;
    },
    async connect(servers) {
      const mcpServers = {};
      for (const server of servers) mcpServers[server.name] = { command: server.command, args: server.args, env: serverEnv() };
      const client = this.MCPClient.fromDict({ mcpServers });
      await client.createAllSessions();
      const sessions = servers.map((server) => client.getSession(server.name));
      return {
        echo: (text, index = 0) => sessions[index].callTool('echo', { text }),
        sleep: (ms) => sessions[0].callTool('sleep', { ms }),
        list: async () => (await sessions[0].listTools()).length,
        close: () => client.closeAllSessions(),
      };
    },
  },
};

/** Client names in table order. */
export const CLIENT_NAMES = Object.keys(clients);

export function clientOf(name) {
  const client = clients[name];
  if (client === undefined) throw new Error(`unknown client "${name}"; known: ${CLIENT_NAMES.join(', ')}`);
  return client;
}

/** An official SDK client row (v1 and v2 share this API): one `Client` + `StdioClientTransport` per server. */
function officialSdkClient(label, packages, loadClient, loadStdio) {
  return {
    label,
    packages,
    async load() {
      this.Client = (await loadClient()).Client;
      this.Transport = (await loadStdio()).StdioClientTransport;
    },
    async connect(servers) {
      const connections = await Promise.all(
        servers.map(async (server) => {
          const client = new this.Client({ name: 'bench', version: '1.0.0' });
          await client.connect(new this.Transport({ command: server.command, args: server.args, env: serverEnv() }));
          await client.listTools();
          return client;
        }),
      );
      return {
        echo: (text, index = 0) => connections[index].callTool({ name: 'echo', arguments: { text } }),
        sleep: (ms) => connections[0].callTool({ name: 'sleep', arguments: { ms } }),
        list: async () => (await connections[0].listTools()).tools.length,
        close: () => Promise.all(connections.map((client) => client.close())),
      };
    },
  };
}
