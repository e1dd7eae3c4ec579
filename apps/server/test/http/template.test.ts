import { describe, expect, it } from "vitest";

import { fillTemplate } from "../../src/http/template";

/** The pages' HTML templates (src/http/…/static/*.html) are filled by one small function. */
describe("fillTemplate", () => {
  it("escapes {{name}} for HTML and puts {{{name}}} as it is", () => {
    expect(
      fillTemplate('<p title="{{who}}">{{who}}</p>{{{extra}}}', { who: `<a href="x">O'Neil & co</a>`, extra: "<hr>" }),
    ).toBe(
      '<p title="&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; co&lt;/a&gt;">&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; co&lt;/a&gt;</p><hr>',
    );
  });

  it("never reads a value's own braces as a placeholder", () => {
    expect(fillTemplate("{{a}} {{{b}}}", { a: "{{b}}", b: "{{{a}}}" })).toBe("{{b}} {{{a}}}");
  });

  it("a placeholder without a value is a bug: it throws rather than sending the braces", () => {
    expect(() => fillTemplate("<p>{{missing}}</p>", {})).toThrow(/missing/);
  });

  it("numbers are written as text, and the file's final newline is dropped", () => {
    expect(fillTemplate("<p>{{days}} days</p>\n", { days: 7 })).toBe("<p>7 days</p>");
  });
});
