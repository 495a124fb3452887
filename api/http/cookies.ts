import type { ResponseCookies } from "../context.ts";


/** Collects cookies set during a GraphQL request, to be written on its response. */
export function cookieCollector(secure: boolean): { cookies: ResponseCookies; apply(response: Response): Response } {
  const headers: string[] = [];
  const base = `Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
  return {
    cookies: {
      set: (name, value, maxAgeSeconds) => headers.push(`${name}=${value}; Max-Age=${maxAgeSeconds}; ${base}`),
      clear: (name) => headers.push(`${name}=; Max-Age=0; ${base}`),
    },
    apply(response) {
      if (headers.length === 0) return response;
      const copy = new Response(response.body, response);
      for (const header of headers) copy.headers.append("Set-Cookie", header);
      return copy;
    },
  };
}

/** Over a WebSocket nothing can be set; operations that open sessions run over HTTP. */
export const NO_COOKIES: ResponseCookies = {
  set() {
    throw new Error("Cookies cannot be set over a WebSocket");
  },
  clear() {
    throw new Error("Cookies cannot be cleared over a WebSocket");
  },
};
