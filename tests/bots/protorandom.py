"""A protocol bot that draws from the operating system, not from the request's seed (tests).

It plays legal cards, but a request sent twice may get two answers: what
``check-bot`` calls answering from something besides the request.
"""

import json
import random
import sys

for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        out = {"type": "hello", "protocol": "hokm-bot/1", "name": "protorandom"}
    elif m["type"] == "bye":
        print(json.dumps({"type": "bye"}), flush=True)
        break
    else:
        pick = random.SystemRandom().choice
        out = {"type": "answers", "answers": [
            {"id": r["id"], "suit": pick("CDHS")} if r["kind"] == "trump"
            else {"id": r["id"], "card": pick(r["legal"])} for r in m["requests"]]}  # fmt: skip
    print(json.dumps(out), flush=True)
