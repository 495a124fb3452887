/**
 * A video is only ever linked to (decision 039), so its address must be one a browser opens as a
 * web page: javascript:, data:, file: and the like are refused by the server and by the console.
 */
export const VIDEO_URL_SCHEMES = "Video URL must be a web address starting with http:// or https://";

export function isWebAddress(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}
