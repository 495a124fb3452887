/**
 * Puts server data into a built page: the placeholder `<script type="application/json" id="ID">null</script>`
 * gets the JSON. `<` is escaped so the data can never close the script element.
 */
export function injectJson(html: string, id: string, data: unknown): string {
  const placeholder = new RegExp(`(<script[^>]*\\sid="${id}"[^>]*>)null(</script>)`);
  const json = JSON.stringify(data).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return html.replace(placeholder, (_match, open: string, close: string) => `${open}${json}${close}`);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
