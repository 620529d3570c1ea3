import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible endpoint (POST /chat/completions), for tests and the quality
 * harness: it answers what the test's `respond` says, including broken answers, errors and delays.
 */
export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
  temperature?: number;
  seed?: number;
  headers: IncomingHttpHeaders;
}

export type FakeAnswer =
  /** A normal completion whose message content is `content` (valid JSON or not). */
  | { content: string; delayMs?: number; usage?: { prompt_tokens: number; completion_tokens: number } }
  /** An HTTP error with an OpenAI-style error body. */
  | { status: number; message?: string }
  /** The socket is closed without an answer. */
  | { hangUp: true };

export interface FakeOpenAi {
  /** Base URL to configure as LLM_BASE_URL. */
  url: string;
  requests: FakeChatRequest[];
  close(): Promise<void>;
}

export async function startFakeOpenAi(
  respond: (request: FakeChatRequest) => FakeAnswer | Promise<FakeAnswer>,
): Promise<FakeOpenAi> {
  const requests: FakeChatRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<FakeChatRequest, 'headers'>;
      const request = { ...body, headers: req.headers };
      requests.push(request);
      let answer: FakeAnswer;
      try {
        answer = await respond(request);
      } catch (error) {
        answer = { status: 500, message: error instanceof Error ? error.message : String(error) };
      }
      if ('hangUp' in answer) {
        req.socket.destroy();
        return;
      }
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: answer.message ?? 'error', type: 'server_error' } }));
        return;
      }
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      if (res.destroyed) return;
      const usage = answer.usage ?? {
        prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4),
        completion_tokens: Math.ceil(answer.content.length / 4),
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            { index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' },
          ],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The user message of a request (the prompt). */
export function promptOf(request: FakeChatRequest): string {
  return request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}
