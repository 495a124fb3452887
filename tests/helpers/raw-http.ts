import type { Socket } from "bun";

/**
 * One HTTP/1.1 connection written by hand, for what fetch cannot show: a request whose body is
 * still arriving, a second request on a connection opened earlier, a connection the server closes.
 */
export class RawConnection {
  #received = "";
  #closed = false;
  #wake: (() => void) | null = null;

  private constructor(private readonly socket: Socket<undefined>) {}

  static async open(port: number): Promise<RawConnection> {
    let connection!: RawConnection;
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        data: (_socket, data) => connection.#take(new TextDecoder().decode(data)),
        close: () => connection.#end(),
        error: () => connection.#end(),
        end: () => connection.#end(),
      },
    });
    connection = new RawConnection(socket);
    return connection;
  }

  #take(text: string): void {
    this.#received += text;
    this.#wake?.();
  }

  #end(): void {
    this.#closed = true;
    this.#wake?.();
  }

  write(text: string): void {
    this.socket.write(text);
    this.socket.flush();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Waits (at most `timeoutMs`) until a whole response has arrived or the server closed the connection; answers what came. */
  async response(timeoutMs: number): Promise<{ status: number | null; headers: Record<string, string>; body: string; closed: boolean }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#complete() && !this.#closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, Math.min(200, deadline - Date.now())));
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const text = this.#received;
    this.#received = "";
    const [head = "", ...rest] = text.split("\r\n\r\n");
    const [statusLine = "", ...headerLines] = head.split("\r\n");
    const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const at = line.indexOf(":");
      if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    return { status: status ? Number(status) : null, headers, body: rest.join("\r\n\r\n"), closed: this.#closed };
  }

  #complete(): boolean {
    const end = this.#received.indexOf("\r\n\r\n");
    if (end < 0) return false;
    const length = /\r\ncontent-length: *(\d+)/i.exec(this.#received.slice(0, end))?.[1];
    return length !== undefined && this.#received.length - end - 4 >= Number(length);
  }

  close(): void {
    this.socket.end();
  }
}

/** The head of a JSON POST for this body; the caller writes the body after it, in parts if it likes. */
export function postHead(path: string, host: string, body: string, headers: Record<string, string> = {}): string {
  const lines = [`POST ${path} HTTP/1.1`, `Host: ${host}`, "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`, ...Object.entries(headers).map(([key, value]) => `${key}: ${value}`)];
  return `${lines.join("\r\n")}\r\n\r\n`;
}
