"""A parser of the project's HTML output for the tests: ids, links, tags, outside loads."""

from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    """What the page holds: ids, links, tags, and anything that would load from outside."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.tags: list[str] = []
        self.outside: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a":
            self.links.append(str(found.get("href")))
        if tag in ("link", "script", "img", "iframe") or "src" in found:
            self.outside.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)
