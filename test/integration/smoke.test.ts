import { expect, test } from 'vitest';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { KITCHEN_SINK, specOf } from '../helpers/fixtures.js';

test('smoke', async () => {
  const connection = await ServerConnection.open(specOf('sink', { path: KITCHEN_SINK }));
  try {
    const tools = await connection.listTools();
    console.log(connection.protocolVersion, tools.map((tool) => tool.name));
    const result = await connection.callTool('echo', { message: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
  } finally {
    await connection.close();
  }
});
