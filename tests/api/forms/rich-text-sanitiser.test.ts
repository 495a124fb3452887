import { describe, expect, test } from "bun:test";
import { sanitiseRichText } from "../../../api/lib/rich-text-sanitiser.ts";

/** The stored message keeps exactly the allowlist of api/shared/rich-text.ts, whatever arrives. */

describe("sanitiseRichText", () => {
  test("keeps what the editor makes: headings, marks, lists, quotes, alignment, colours, indents, 'do not translate'", () => {
    const html =
      '<h1>Title</h1><h2 style="text-align:center">Sub</h2><p data-indent="2"><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <span style="color:#ff0000;background-color:#00f" translate="no">Lantern</span><br></p><blockquote><p>q</p></blockquote><ul><li>one</li></ul><ol><li data-indent="8">two</li></ol>';
    expect(sanitiseRichText(html)).toBe(html.replace("<br>", "<br />"));
  });

  test("script and style elements go with their contents; unknown elements leave their text", () => {
    expect(sanitiseRichText('<p>hi<script>alert(1)</script><style>p{}</style></p>')).toBe("<p>hi</p>");
    expect(sanitiseRichText('<div><img src=x onerror=alert(1)><iframe src="https://evil.test"></iframe><p>kept</p></div>')).toBe("<p>kept</p>");
    expect(sanitiseRichText("<scr<script>ipt>alert(1)</script>")).toBe("ipt&gt;alert(1)");
    expect(sanitiseRichText("<svg><script>alert(1)</script></svg><p>x</p>")).toBe("<p>x</p>");
    expect(sanitiseRichText('<h3 class="a" id="b">h3</h3><h1 class="a" id="b">t</h1>')).toBe("h3<h1>t</h1>");
  });

  test("event handlers and unknown attributes go; attribute values outside the allowlist go", () => {
    expect(sanitiseRichText('<p onclick="x()" onmouseover="y()" title="t">a</p>')).toBe("<p>a</p>");
    expect(sanitiseRichText('<p translate="yes" data-indent="9">a</p><p data-indent="0">b</p><p data-indent="1;x">c</p>')).toBe("<p>a</p><p>b</p><p>c</p>");
  });

  test("styles keep only hex colours and alignment: no url(), expressions, named colours or other properties", () => {
    expect(sanitiseRichText('<p style="color:red;position:fixed;background-image:url(https://evil.test/x)">a</p>')).toBe("<p>a</p>");
    expect(sanitiseRichText('<p style="background-color:url(https://evil.test/x);text-align:left">a</p>')).toBe('<p style="text-align:left">a</p>');
    expect(sanitiseRichText('<p style="color:expression(alert(1))">a</p>')).toBe("<p>a</p>");
  });

  test("links keep only http(s) and mailto targets, and always open apart without a referrer", () => {
    expect(sanitiseRichText('<a href="javascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitiseRichText('<a href="  JaVaScRiPt:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitiseRichText('<a href="data:text/html,hi">x</a><a href="/relative">y</a><a href="//evil.test">z</a>')).toBe("<a>x</a><a>y</a><a>z</a>");
    expect(sanitiseRichText('<a href="https://example.test/a?b=1&c=2" target="_self" rel="opener">x</a>')).toBe('<a href="https://example.test/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">x</a>');
    expect(sanitiseRichText('<a href="mailto:help@example.test">mail</a>')).toBe('<a href="mailto:help@example.test" rel="noopener noreferrer" target="_blank">mail</a>');
  });

  test("an empty document is '', and text is trimmed", () => {
    for (const empty of ["", "   ", "<p></p>", "<p><br></p>", " <p>&nbsp;</p> ", "<p><strong> </strong></p>", "<script>x</script>"]) expect(sanitiseRichText(empty)).toBe("");
    expect(sanitiseRichText("  <p>a</p>\n")).toBe("<p>a</p>");
  });

  test("text is escaped, never markup", () => {
    expect(sanitiseRichText("<p>1 < 2 & \"quotes\"</p>")).toBe("<p>1 &lt; 2 &amp; \"quotes\"</p>");
  });

  test("1 MB of input, deeply nested junk included, is handled", () => {
    const big = `<p>${"a".repeat(1_000_000)}</p>`;
    expect(sanitiseRichText(big)).toHaveLength(big.length);
    const nested = `${"<div><span>".repeat(5000)}x${"</span></div>".repeat(5000)}`;
    expect(sanitiseRichText(nested)).toBe(`${"<span>".repeat(5000)}x${"</span>".repeat(5000)}`);
  });
});
