import { describe, expect, test } from "bun:test";
import { protectUntranslated, restoreUntranslated } from "../../../api/modules/translation/keep-untranslated.ts";

describe("'do not translate' parts", () => {
  test("each marked element, nested markup and all, is swapped for a numbered empty placeholder and back", () => {
    const html = '<p>Ring <span translate="no">Acme <span>Line</span> 24/7</span> or <em translate="no">Ethics</em><br translate="no">now</p>';
    const { html: sent, kept } = protectUntranslated(html);
    expect(sent).toBe('<p>Ring <span data-lantern-keep="0"></span> or <span data-lantern-keep="1"></span><span data-lantern-keep="2"></span>now</p>');
    expect(kept).toEqual(['<span translate="no">Acme <span>Line</span> 24/7</span>', '<em translate="no">Ethics</em>', '<br translate="no">']);
    expect(restoreUntranslated(sent.replace("Ring", "Rufen Sie").replace("now", "jetzt an"), kept)).toBe(
      '<p>Rufen Sie <span translate="no">Acme <span>Line</span> 24/7</span> or <em translate="no">Ethics</em><br translate="no" />jetzt an</p>',
    );
  });

  test("text without marks goes as it is", () => {
    expect(protectUntranslated("<p>Plain words</p>")).toEqual({ html: "<p>Plain words</p>", kept: [] });
  });

  test("a translation that lost, doubled or invented a placeholder is not used", () => {
    const { html, kept } = protectUntranslated('<p>Call <span translate="no">Acme</span></p>');
    expect(restoreUntranslated("<p>Rufen Sie an</p>", kept)).toBeNull();
    expect(restoreUntranslated(`${html}${html}`, kept)).toBeNull();
    expect(restoreUntranslated('<p><span data-lantern-keep="0"></span><span data-lantern-keep="7"></span></p>', kept)).toBeNull();
  });

  test("whatever the provider answers is rebuilt to the rich-text allowlist", () => {
    expect(restoreUntranslated('<p onclick="steal()">Hallo <script>alert(1)</script><a href="javascript:x">Link</a></p>', [])).toBe("<p>Hallo <a>Link</a></p>");
    expect(restoreUntranslated("<p>   </p>", [])).toBeNull();
  });
});
