"""The bot author's loop in CPU seconds: a new bot file, an edit, regress, a tournament.

Each step is a fresh ``hokm-sim`` process; its figure is the user + system CPU
seconds of the process and its children (``resource.getrusage``), which the
machine's load moves far less than wall time. Bot files are written to a new
temporary folder, so every bot is new to the cache; the engine and the built-in
bots are compiled first (a warm-up run), as on an installed machine.

    python benchmarks/bot_loop.py [--cold]

``--cold`` adds the README's first command with an empty cache: the CPU before
its first hand (``trace`` of one hand of ``expert`` against ``longest``, which
compiles what ``run`` does) and a whole ``hokm-sim run --hands 1000``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu(args: list[str], cwd: Path, env: dict | None = None) -> float:
    """CPU seconds (user + system) of ``hokm-sim ARGS`` and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "hokm_sim", *args],
        cwd=cwd,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def git(repo: Path, *args: str) -> None:
    base = ["git", "-C", str(repo), "-c", "user.email=b@b", "-c", "user.name=b"]
    subprocess.run([*base, *args], check=True, capture_output=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cold", action="store_true", help="also the first command, empty cache")
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hokm-loop-"))
    out = ["--out", str(work / "r"), "--force"]
    # warm-up: the engine and the built-in bots this loop meets, as on an installed machine
    cpu(["run", "expert", "longest", "--hands", "1000", "--seed", "1", *out], work)
    rows = []
    bot = work / "my_bot.py"
    shutil.copy(ROOT / "examples" / "my_bot.py", bot)
    run = ["run", "my_bot.py", "longest", "--hands", "100000", "--seed", "1", *out]
    rows.append(("first run of a new bot file (my_bot.py vs longest, 100k deals)", cpu(run, work)))
    rows.append(("its second run (fast mode, a new unit)", cpu(run, work)))
    rows.append(("its third run (everything cached)", cpu(run, work)))
    git(work, "init", "-q")
    git(work, "add", "my_bot.py")
    git(work, "commit", "-qm", "bot")
    bot.write_text(bot.read_text().replace("return lowest(legal)", "return lowest(legal)  # !"))
    reg = ["regress", "my_bot.py", "--seed", "1", "--max-pairs", "2000", *out]
    rows.append(("regress after a one-line edit (2,000 pairs at most)", cpu(reg, work)))
    rows.append(("the same regress again (everything cached)", cpu(reg, work)))
    names = []
    for i in range(4):
        name = f"copy{i}.py"
        text = (ROOT / "strategies" / "longest.py").read_text() + f"\n# copy {i}\n"
        (work / name).write_text(text)
        names.append(name)
    tour = ["tournament", *names, "--hands", "2000", "--seed", "1", *out]
    rows.append(("tournament of four new bot files (2,000 deals a pairing)", cpu(tour, work)))
    rows.append(("the same tournament again", cpu(tour, work)))
    edited = work / "expert2.py"
    edited.write_text((ROOT / "strategies" / "expert.py").read_text() + "\n# edited\n")
    first = ["trace", "--seed", "1", "--hands", "1", "--a", "expert2.py", "--b", "longest"]
    rows.append(("an edited copy of expert: its first hand", cpu(first, work)))
    if args.cold:
        cold = dict(os.environ, HOKM_SIM_CACHE=tempfile.mkdtemp(prefix="hokm-cold-"))
        hand = ["trace", "--seed", "1", "--hands", "1", "--a", "expert", "--b", "longest"]
        rows.append(("empty cache: the first hand of expert vs longest", cpu(hand, work, cold)))
        cold = dict(os.environ, HOKM_SIM_CACHE=tempfile.mkdtemp(prefix="hokm-cold-"))
        whole = ["run", "--hands", "1000", "--seed", "1", *out]
        rows.append(("empty cache: hokm-sim run --hands 1000", cpu(whole, work, cold)))
    for what, seconds in rows:
        print(f"{seconds:7.2f} s CPU  {what}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
