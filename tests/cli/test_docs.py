"""The user documentation (README.md and docs/) against the real command line: every command and
option a page names exists (asked of ``xwsat COMMAND --help``), the links between pages resolve,
and the cheap examples run with the exit code they promise."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import COMMANDS, app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GROUPS = {"bench": ("run", "report"), "grids": ("suites", "generate", "suggest"),
          "dict": ("info", "export")}
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")
CODE_SPAN = re.compile(r"`([^`\n]+)`")


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def code_lines(text: str) -> list[str]:
    """The lines of the fenced blocks, a command's indented continuation lines joined to it."""
    lines: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            continue
        if lines and line[:1].isspace() and lines[-1].lstrip().startswith("xwsat "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def command_segments(text: str) -> list[list[str]]:
    """Each place a page names a command: the words from the command name on, from code blocks
    (up to a ``#`` comment) and from inline code spans (``fill --out``, ``xwsat prove ...``)."""
    found = []
    for line in code_lines(text):
        for part in line.split(" # ")[0].split(" | "):
            words = part.split()
            if "xwsat" in words:
                found.append(words[words.index("xwsat") + 1:])
    for span in CODE_SPAN.findall(text):
        words = span.split()
        if words and words[0] == "xwsat":
            found.append(words[1:])
        elif words and words[0] in COMMANDS and len(words) > 1 and OPTION.search(span):
            found.append(words)
    return found


def named_commands(page: Path) -> list[tuple[tuple[str, ...], list[str]]]:
    """(command path, options named with it) for every command a page names."""
    named = []
    for words in command_segments(page.read_text(encoding="utf-8")):
        if not words or words[0].startswith("-"):
            named.append(((), [w for w in words if OPTION.fullmatch(w)]))
            continue
        if not re.fullmatch(r"[a-z][a-z-]*", words[0]):
            continue  # a placeholder such as COMMAND
        path: tuple[str, ...] = (words[0],)
        rest = words[1:]
        if words[0] in GROUPS:
            sub = re.split(r"[|.]", rest[0])[0] if rest else ""
            if sub in GROUPS[words[0]]:
                path, rest = (words[0], sub), rest[1:]
            elif words[0] == "bench":
                path = ("bench", "run")  # ``xwsat bench SUITE...`` means ``bench run``
            else:
                path = (words[0], GROUPS[words[0]][0])
        options = [m for w in rest for m in OPTION.findall(w)]
        named.append((path, options))
    return named


@cache
def help_options(path: tuple[str, ...]) -> frozenset[str]:
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exit_code == 0, (path, result.output)
    return frozenset(OPTION.findall(result.output))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_command_a_page_names_exists(page: Path) -> None:
    named = named_commands(page)
    assert named, f"{page_id(page)} names no xwsat command"
    unknown = sorted({path[0] for path, _ in named if path and path[0] not in COMMANDS})
    assert not unknown, f"{page_id(page)} names commands xwsat does not have: {unknown}"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_option_a_page_names_is_in_the_commands_help(page: Path) -> None:
    missing = sorted({f"xwsat {' '.join(path)} {option}".replace("  ", " ")
                      for path, options in named_commands(page) if not path or path[0] in COMMANDS
                      for option in options if option not in help_options(path)})
    assert not missing, f"{page_id(page)} names options the command does not take: {missing}"


def test_the_option_check_catches_a_made_up_option(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Run `xwsat fill GRID --dict en --colour red` or `prove --certify`.\n")
    named = named_commands(page)
    assert (("fill",), ["--dict", "--colour"]) in named and (("prove",), ["--certify"]) in named
    assert "--colour" not in help_options(("fill",))
    assert "--certify" not in help_options(("prove",))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_the_files_a_page_links_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    named = {span for span in CODE_SPAN.findall(text)
             if re.fullmatch(r"(docs|results|grids|encodings|scripts|xwsat|tests)/[\w./+-]*", span)
             or re.fullmatch(r"[A-Z]+\.md", span)}
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"{page_id(page)} points at files that do not exist: {missing}"


# Examples from the pages that take seconds and write nothing, with the exit code they promise.
EXAMPLES = [
    ("README.md", "xwsat fill grids/american/step_two.txt", 0),
    ("docs/fill.md",
     "xwsat info grids/small/amer15.txt --dict grids/dictionaries/wamerican.txt", 0),
    ("docs/prove.md", "xwsat count grids/blank/blank4x8.txt --dict grids/dictionaries/lex.txt", 0),
    ("docs/bench.md", "xwsat grids suites", 0),
]


@pytest.mark.parametrize(("page", "example", "code"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_a_cheap_example_runs_as_the_page_says(page: str, example: str, code: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert example in (ROOT / page).read_text(encoding="utf-8"), f"{page} lost the example"
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, example.split()[1:])
    assert result.exit_code == code, (example, result.output)
