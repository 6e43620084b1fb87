"""``xwsat serve`` as a service: a real server process, spoken to over HTTP and WebSocket."""

from __future__ import annotations

import json
import signal
import time

import httpx
import pytest
from websockets.sync.client import connect

from xwsat.workbench.launch import alive, descendants, running_server


@pytest.fixture(scope="module")
def server():
    with running_server("--search-limit", "2") as (address, process):
        yield address, process


def socket_of(address: str):
    return connect(address.replace("http://", "ws://") + "ws", max_size=None)


def next_of(ws, kind: str, timeout: float = 30.0, **match):
    """The next message of ``kind`` (and matching fields), skipping the others."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message
    raise AssertionError(f"no {kind} message")


def job_of(ws, kind: str, timeout: float = 30.0, **match):
    """The next job message about a search of ``kind`` (and matching fields)."""
    deadline = time.monotonic() + timeout
    while True:
        message = next_of(ws, "job", max(0.1, deadline - time.monotonic()))
        if message["kind"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message


def act(ws, **action):
    ws.send(json.dumps({"type": "action", "action": action}))


def test_the_page_is_served_and_no_file_outside_its_folder(server):
    address, _ = server
    assert httpx.get(address).status_code == 200
    assert "drawGrid" in httpx.get(address + "static/grid.js").text
    for path in ("static/../../pyproject.toml", "static/%2e%2e/app.py",
                 "static/..%2f..%2fpyproject.toml", "api/x/save/..%2f..%2fetc%2fpasswd"):
        response = httpx.get(address + path)
        assert response.status_code in (400, 404), path
        assert "[project]" not in response.text and "starlette" not in response.text


def test_two_pages_editing_at_once_do_not_see_each_other(server):
    address, _ = server
    with socket_of(address) as one, socket_of(address) as two:
        first, second = next_of(one, "state"), next_of(two, "state")
        assert first["session"] != second["session"]
        act(one, type="letter", cell=0, letter="Q")
        assert next_of(one, "state")["doc"]["rows"][0].startswith("Q")
        act(two, type="letter", cell=1, letter="Z")
        assert next_of(two, "state")["doc"]["rows"][0].startswith(".Z")
        response = httpx.get(f"{address}api/{second['session']}/save/txt")
        assert response.text.splitlines()[0].startswith(".Z")


def test_a_state_says_up_to_which_message_of_the_page_it_holds(server):
    """The page shows its own letters at once and drops them once a state holds them."""
    address, _ = server
    with socket_of(address) as ws:
        assert next_of(ws, "state")["acked"] == 0
        ws.send(json.dumps({"type": "action", "seq": 7,
                            "action": {"type": "letter", "cell": 0, "letter": "Q"}}))
        assert next_of(ws, "state")["acked"] == 7
        ws.send(json.dumps({"type": "action", "seq": 8,
                            "action": {"type": "letter", "cell": 0, "letter": "1"}}))
        assert next_of(ws, "error")["acked"] == 8  # refused: the page takes its letter back


def test_bad_messages_get_one_sentence_and_the_page_goes_on(server):
    address, _ = server
    with socket_of(address) as ws:
        next_of(ws, "state")
        ws.send("this is not json")
        assert "JSON" in next_of(ws, "error")["message"]
        act(ws, type="letter", cell=10_000, letter="A")
        assert "no cell" in next_of(ws, "error")["message"]
        act(ws, type="letter", cell=0, letter="Ж")
        assert "not a letter of the dictionary" in next_of(ws, "error")["message"]
        act(ws, type="new", width=26, height=26)
        assert "3 to 25" in next_of(ws, "error")["message"]
        act(ws, type="letter", cell=0, letter="a")
        assert next_of(ws, "state")["doc"]["rows"][0][0] == "A"


def test_malformed_huge_and_oversized_uploads_are_4xx_with_a_message(server):
    address, _ = server
    with socket_of(address) as ws:
        sid = next_of(ws, "state")["session"]
        base = f"{address}api/{sid}"
        bad = httpx.post(f"{base}/open?name=x.puz", content=b"not a puz file at all")
        assert bad.status_code == 400 and ".puz" in bad.json()["error"]
        wide = httpx.post(f"{base}/open?name=x.txt", content=("." * 40 + "\n").encode() * 40)
        assert wide.status_code == 400 and "25x25" in wide.json()["error"]
        huge = httpx.post(f"{base}/open?name=x.txt", content=b"." * (5 << 20))
        assert huge.status_code == 413
        big_list = httpx.post(f"{base}/dictionary?name=w.txt", content=b"A\n" * (17 << 20))
        assert big_list.status_code == 413
        binary = httpx.post(f"{base}/dictionary?name=w.txt", content=b"\x00\x01" * 100)
        assert binary.status_code == 400 and "binary" in binary.json()["error"]
        assert httpx.get(f"{base}/save/puz").status_code == 400  # an empty grid is no .puz
        assert httpx.get(f"{address}api/nosuchpage/save/txt").status_code == 400
        good = httpx.post(f"{base}/open?name=g.txt", content=b"CAT\n...\n...\n")
        assert good.status_code == 200
        assert next_of(ws, "state")["doc"]["rows"] == ["CAT", "...", "..."]


def test_a_title_in_any_script_is_saved_under_its_own_name(server):
    address, _ = server
    with socket_of(address) as ws:
        sid = next_of(ws, "state")["session"]
        act(ws, type="meta", field="title", value="Кроссворд 日本")
        next_of(ws, "state")
        response = httpx.get(f"{address}api/{sid}/save/json")
        assert response.status_code == 200
        disposition = response.headers["content-disposition"]
        assert "filename*=UTF-8''%D0%9A%D1%80" in disposition
        assert json.loads(response.text)["title"] == "Кроссворд 日本"


def test_an_uploaded_list_is_used_and_its_letters_with_it(server):
    address, _ = server
    with socket_of(address) as ws:
        sid = next_of(ws, "state")["session"]
        listing = "ЖУК;60;жук\nУЖА;50\nКАК;40\nЖУА;40\nУКА;30\nКАА;20\n".encode()
        response = httpx.post(f"{address}api/{sid}/dictionary?name=ru.txt", content=listing)
        assert response.status_code == 200 and response.json()["note"] == ""
        state = next_of(ws, "state")
        assert state["dictionary"]["words"] == 6 and state["dictionary"]["label"] == "ru.txt"
        act(ws, type="new", width=3, height=3)
        next_of(ws, "state")
        act(ws, type="letter", cell=0, letter="ж")
        state = next_of(ws, "state")
        assert state["doc"]["rows"][0] == "Ж.."


def test_the_lines_an_uploaded_list_left_out_are_said(server):
    # R2D2 and C3PO went in silence: a page never said a list was read short
    address, _ = server
    with socket_of(address) as ws:
        sid = next_of(ws, "state")["session"]
        listing = b"ABC1;50\nR2D2;50\nC3PO;40\nHELLO;50\n"
        response = httpx.post(f"{address}api/{sid}/dictionary?name=droids.txt", content=listing)
        assert response.status_code == 200
        assert response.json()["note"] == ("droids.txt: 3 lines left out (not words), the "
                                           "first line 1: 'ABC1;50'; 1 word kept")
        state = next_of(ws, "state")
        assert state["dictionary"]["words"] == 1 and state["dictionary"]["label"] == "droids.txt"


def test_twenty_quick_edits_show_no_stale_answer_and_pile_up_no_process(server):
    address, process = server
    with socket_of(address) as ws:
        next_of(ws, "state")
        for cell in range(20):
            act(ws, type="letter", cell=cell, letter="ABCDEFGHIJKLMNOPQRST"[cell])
        last_rev, answers = None, []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=20))
            if message["type"] == "state":
                last_rev = message["rev"]
                if message["doc"]["rows"][1].startswith("PQRST"):
                    break
        assert last_rev is not None
        while True:
            message = json.loads(ws.recv(timeout=20))
            if message["type"] == "job":
                answers.append(message)
                if message["kind"] == "decide" and message["final"]:
                    break
        assert {a["rev"] for a in answers} == {last_rev}  # nothing for an earlier grid
        deadline = time.monotonic() + 5  # the one search done, nothing is left running
        while descendants(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not descendants(process.pid)


def test_an_autofill_leaves_the_verdict_decided_and_stop_stops_it(server):
    address, process = server
    with socket_of(address) as ws:
        next_of(ws, "state")
        act(ws, type="new", width=5, height=5)
        rev = next_of(ws, "state")["rev"]
        ws.send(json.dumps({"type": "autofill", "region": None}))  # before the verdict came
        decided = job_of(ws, "decide", final=True, rev=rev)
        assert decided["result"]["status"] == "fillable"
        act(ws, type="new", width=13, height=13)
        rev = next_of(ws, "state")["rev"]
        ws.send(json.dumps({"type": "autofill", "region": None}))
        job_of(ws, "autofill", rev=rev)
        ws.send(json.dumps({"type": "reject"}))  # the page's Stop while no fill is shown
        assert job_of(ws, "autofill", final=True, rev=rev)["result"]["status"] \
            == "rejected"
        assert job_of(ws, "decide", final=True, rev=rev)  # the verdict goes on


def test_patterns_asked_for_do_not_leave_the_verdict_without_its_entries_to_blame(server):
    """Suggest patterns stops the verdict's search, as an autofill does; once the patterns
    are found, the search for the entries to blame runs again (the page said "Finding the
    entries to blame…" for good)."""
    address, _ = server
    with socket_of(address) as ws:
        rev = next_of(ws, "state")["rev"]  # the open 15x15: no fill, found in a blink
        ws.send(json.dumps({"type": "patterns"}))
        job_of(ws, "patterns", final=True, rev=rev, timeout=90)
        decided = job_of(ws, "decide", final=True, rev=rev, timeout=60)
        assert decided["result"]["status"] == "unfillable" and decided["result"]["core"]


def test_stopping_the_server_leaves_no_process_behind():
    with running_server("--search-limit", "30") as (address, process), socket_of(address) as ws:
        next_of(ws, "state")
        act(ws, type="new", width=13, height=13)  # no slot emptied by arc consistency: a search
        next_of(ws, "state")
        ws.send(json.dumps({"type": "autofill", "region": None}))
        deadline = time.monotonic() + 20
        while not descendants(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = descendants(process.pid)
        assert started
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
    time.sleep(0.5)
    assert not [p for p in started if alive(p)]


def test_another_sites_page_cannot_open_the_socket(server):
    from websockets.exceptions import InvalidStatus

    address, _ = server
    with pytest.raises(InvalidStatus):
        connect(address.replace("http://", "ws://") + "ws",
                additional_headers={"Origin": "http://evil.example"}).close()


def test_suggested_patterns_obey_the_rules_come_filled_and_one_can_be_used(server):
    from xwsat.grid import parse_grid
    from xwsat.grid_patterns import cheater_cap, check_pattern, word_ceiling
    from xwsat.pattern_stats import pattern_stats

    address, _ = server
    with socket_of(address) as ws:
        next_of(ws, "state")
        act(ws, type="new", width=9, height=9)
        next_of(ws, "state")
        act(ws, type="letters", cells={str(36 + i): ch for i, ch in enumerate("AFTERNOON")})
        rev = next_of(ws, "state")["rev"]
        ws.send(json.dumps({"type": "patterns"}))
        deadline = time.monotonic() + 60
        while True:  # the job's own "kind" field: next_of's first argument is the message type
            message = next_of(ws, "job", timeout=deadline - time.monotonic(), final=True)
            if message["kind"] == "patterns":
                break
        done = message["result"]
        assert done["status"] == "done" and done["entries"] == ["AFTERNOON"]
        assert done["suggestions"], done
        for found in done["suggestions"]:
            pattern = parse_grid("\n".join(found["pattern"]) + "\n")
            assert check_pattern([[ch == "#" for ch in row] for row in pattern.rows]) == []
            stats = pattern_stats(pattern)
            assert stats.words == found["words"] <= word_ceiling(9)
            assert len(stats.cheaters) == found["cheaters"] <= cheater_cap(9)
            assert found["fill"][4] == "AFTERNOON" and "." not in "".join(found["fill"])
        chosen = done["suggestions"][0]["pattern"]
        act(ws, type="pattern", rows=chosen)
        state = next_of(ws, "state")
        assert state["rev"] > rev
        assert [row.replace("#", ".") != row for row in state["doc"]["rows"]] == [
            "#" in row for row in chosen]
        assert all((a == "#") == (b == "#") for ra, rb in zip(state["doc"]["rows"], chosen)
                   for a, b in zip(ra, rb))
        act(ws, type="pattern", rows=["#" * 9] * 9)
        assert "block on a letter" in next_of(ws, "error")["message"]


@pytest.mark.parametrize("port", ["99999", "-1", "busy"])
def test_a_port_out_of_range_or_in_use_is_one_line(port):
    """`serve --port` with no such port, or one another program holds: exit 2 and one line."""
    import socket

    from typer.testing import CliRunner

    from xwsat.cli import app

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    try:
        number = str(holder.getsockname()[1]) if port == "busy" else port
        result = CliRunner().invoke(app, ["serve", "--port", number])
    finally:
        holder.close()
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xwsat: error: ") and "port" in lines[0]


def test_an_autofill_sent_right_after_an_edit_runs_on_the_edited_grid(server):
    address, _ = server
    with socket_of(address) as ws:
        next_of(ws, "state")
        act(ws, type="new", width=5, height=5)
        next_of(ws, "state")
        for letter in "SPC":  # read in one go by the server: the edits must not stop the search
            act(ws, type="letter", cell=0, letter=letter)
            ws.send(json.dumps({"type": "bans", "words": [letter + "TAGE"]}))
            ws.send(json.dumps({"type": "autofill", "region": None}))
            answer = job_of(ws, "autofill", final=True)
            assert answer["result"]["status"] == "filled", answer
            letters = answer["result"]["letters"]
            first = "".join(letters.get(str(i), letter) for i in range(5))
            assert first[0] == letter and first != letter + "TAGE"


def test_a_certificate_of_a_locked_theme_word_rechecks_on_the_constructors_list(server,
                                                                              tmp_path):
    # the page's certificate left its lock out of the manifest: check-proof said NOT VERIFIED
    # (exit 4) whenever the locked word was not in the list
    import io
    import zipfile

    from typer.testing import CliRunner

    from xwsat.cli import app

    address, _ = server
    listing = b"AAA\nABD\nACA\nADA\nADD\nBAC\nDBD\nDCB\nDDA\nDDB\n"
    with socket_of(address) as ws:
        sid = next_of(ws, "state")["session"]
        assert httpx.post(f"{address}api/{sid}/dictionary?name=w.txt",
                          content=listing).status_code == 200
        next_of(ws, "state")
        act(ws, type="new", width=3, height=3)
        next_of(ws, "state")
        act(ws, type="lock", slot="1A", word="AAD")  # no word of the list: a theme entry
        assert next_of(ws, "state")["doc"]["locks"]
        ws.send(json.dumps({"type": "certificate"}))
        done = job_of(ws, "certificate", 60, final=True)
        assert done["result"]["status"] == "unfillable" and done["result"]["checked"], done
        body = httpx.get(f"{address}api/{sid}/certificate.zip").content
    zipfile.ZipFile(io.BytesIO(body)).extractall(tmp_path)
    folder = tmp_path / "certificate"
    rules = json.loads((folder / "manifest.json").read_text())["rules"]
    assert rules["locked"] == {"1A": "AAD"} and rules["placed_only"] == ["AAD"]
    words = tmp_path / "w.txt"
    words.write_bytes(listing)
    for extra in ([], ["--dict", str(words)]):
        checked = CliRunner().invoke(app, ["check-proof", str(folder), *extra])
        assert checked.exit_code == 1 and "VERIFIED" in checked.stdout, checked.output
        assert "with the entries 1A=AAD locked" in checked.stdout
