"""Exit codes are decided in one place: ``xwsat.exit_codes.ExitCode``, the README's table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from xwsat.exit_codes import ExitCode
from xwsat.outcome import Status

PACKAGE = Path(__file__).resolve().parents[2] / "xwsat"
README = Path(__file__).resolve().parents[2] / "README.md"


def test_exit_codes_match_the_readme_table() -> None:
    table = dict(re.findall(r"^\| (\d) \| ([^|]+) \|$", README.read_text(), re.M))
    assert sorted(int(code) for code in table) == sorted({int(code) for code in ExitCode})
    assert table[str(ExitCode.UNFILLABLE.value)].startswith("proven unfillable")
    assert table[str(ExitCode.UNDECIDED.value)].startswith("undecided")


def test_status_exit_codes_are_the_enum() -> None:
    assert Status.FILLED.exit_code is ExitCode.FILLED
    assert Status.UNFILLABLE.exit_code is ExitCode.UNFILLABLE
    assert Status.UNKNOWN.exit_code is ExitCode.UNDECIDED
    assert Status.ERROR.exit_code is ExitCode.ERROR


def _literal_exits(tree: ast.AST) -> list[int]:
    """Lines of ``typer.Exit(<number>)``, ``sys.exit(<number>)`` or ``code = <number>``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = ast.unparse(node.func)
            if name in {"typer.Exit", "sys.exit", "Exit", "os._exit"} and isinstance(
                    node.args[0].value, int):
                found.append(node.lineno)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and any(
                isinstance(t, ast.Name) and t.id == "code" for t in node.targets) and isinstance(
                node.value.value, int):
            found.append(node.lineno)
    return found


def test_no_command_writes_an_exit_code_as_a_number() -> None:
    offenders = {str(path.relative_to(PACKAGE)): lines for path in sorted(PACKAGE.rglob("*.py"))
                 if (lines := _literal_exits(ast.parse(path.read_text())))}
    assert offenders == {}
