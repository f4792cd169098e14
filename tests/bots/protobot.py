"""A hokm-bot/1 protocol bot in plain Python that breaks the protocol on purpose (tests).

    python tests/bots/protobot.py MODE [MARKER]

It calls clubs and plays the lowest legal card. In mode ``ok`` it does only
that; in every other mode it misbehaves in the way the mode says at the
first message holding a card request of seat 1 in the third trick (8 to 11
cards played) -- or, for ``suit``, a trump call of seat 1 -- and plays
cleanly before. ``hello-*`` modes misbehave at ``hello``; ``first`` answers the
first ``decide`` message (the trump calls of the first hands) with garbage. With ``MARKER``, it
writes the messages it got to that file (one type per line), so a test can
see ``bye`` arrive.

Mode ``family`` plays as ``ok`` and, at ``hello``, starts three helpers that
wait to be killed (their command lines are this file's, with ``MARKER``): one
in its process group, one that leaves it for a session of its own
(``setsid``), and a daemon (two forks and ``setsid``: its parent is gone).
"""

import json
import os
import signal
import subprocess
import sys
import time

ORDER = {r + s: i for i, (s, r) in enumerate((s, r) for s in "CDHS" for r in "23456789TJQKA")}
mode = sys.argv[1]
if mode in ("helper", "session", "daemon"):  # a helper of mode family: waits to be killed
    if mode == "daemon" and os.fork():
        sys.exit(0)
    if mode != "helper":
        os.setsid()
    if mode == "daemon" and os.fork():
        sys.exit(0)
    time.sleep(3600)
    sys.exit(0)
marker = open(sys.argv[2], "a") if len(sys.argv) > 2 else None  # noqa: SIM115


def start_family() -> None:
    for kind in ("helper", "session", "daemon"):
        helper = subprocess.Popen([sys.executable, __file__, kind, *sys.argv[2:]],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)  # fmt: skip
        if kind == "daemon":
            helper.wait()  # the daemon's parent is gone once this returns


def out(msg) -> None:
    sys.stdout.write((msg if isinstance(msg, str) else json.dumps(msg)) + "\n")
    sys.stdout.flush()


def trigger(r) -> bool:
    if mode == "first":
        return True
    if mode == "suit":
        return r["kind"] == "trump" and r["seat"] == 1
    return r["kind"] == "card" and r["seat"] == 1 and 8 <= len(r["plays"]) <= 11


def answer(r, bad: bool):
    if r["kind"] == "trump":
        return {"id": r["id"], "suit": "X" if bad else "C"}
    if bad and mode == "illegal":
        return {"id": r["id"], "card": next(c for c in ORDER if c not in r["legal"])}
    return {"id": r["id"], "card": min(r["legal"], key=ORDER.get)}


for line in sys.stdin:
    m = json.loads(line)
    if marker:
        marker.write(m["type"] + "\n")
        marker.flush()
    if m["type"] == "hello":
        if mode == "family":
            start_family()
        if mode == "hello-hang":
            time.sleep(3600)
        version = "hokm-bot/2" if mode == "hello-protocol" else "hokm-bot/1"
        out({"type": "hello", "protocol": version})
        continue
    if m["type"] == "bye":
        out({"type": "bye"})
        break
    reqs = m["requests"]
    bad = any(trigger(r) for r in reqs)
    answers = [answer(r, bad and trigger(r)) for r in reqs]
    if mode == "noise":
        sys.stderr.write("log line\n" * 20000)
    if not bad or mode in ("ok", "noise", "family"):
        out({"type": "answers", "answers": answers})
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "spin":  # busy, deaf to its input: only a kill ends it
        if marker:
            marker.write("spin\n")
            marker.flush()
        while True:
            pass
    elif mode == "exit":
        sys.stderr.write("about to give up\nboom: cannot go on\n")
        sys.exit(3)
    elif mode == "kill":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "close":
        os.close(1)
        time.sleep(3600)
    elif mode in ("garbage", "first"):
        out("this is not json")
    elif mode == "array":
        out("[1, 2, 3]")
    elif mode == "deep":  # JSON nested deeper than Python's json can read
        out("[" * 100_000 + "]" * 100_000)
    elif mode == "type":
        out({"type": "hello", "protocol": "hokm-bot/1"})
    elif mode == "missing":
        out({"type": "answers", "answers": answers[:-1]})
    elif mode == "extra":
        out({"type": "answers", "answers": [*answers, {"id": len(answers), "card": "AS"}]})
    elif mode == "order":
        out({"type": "answers", "answers": answers[::-1]})
    elif mode == "error":
        out({"type": "error", "message": "cannot decide this one"})
    elif mode == "quit":  # answers, then leaves without bye
        out({"type": "answers", "answers": answers})
        sys.exit(0)
    elif mode == "twice":  # in one write, so that the host reads both lines at once
        line = json.dumps({"type": "answers", "answers": answers}) + "\n"
        sys.stdout.flush()
        os.write(sys.stdout.fileno(), (line + line).encode())
    else:  # suit, illegal: the bad answer is in the list
        out({"type": "answers", "answers": answers})
