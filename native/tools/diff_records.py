"""Differential run of game records (text, JSON, parse errors) through the adapter extension
kinds x_record and x_parse_record. Usage: python native/tools/diff_records.py ADAPTER
"""
import json, random, subprocess, sys
from hatsuden_rules import new_game, legal_moves, apply, parse_rules
from hatsuden_rules.notation import format_move
from hatsuden_rules.records import record_game, format_record, parse_record
from hatsuden_rules.serialization import to_json
proc = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def rust(req):
    proc.stdin.write(json.dumps(req) + "\n"); proc.stdin.flush()
    return json.loads(proc.stdout.readline())
R = random.Random(3); diffs = 0
RULES = ["5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20", "1/2/2/1/1/ACC/city_points/noretake/2", "3/2/2/2/3/ACC+SEC+SMT+DWN/city_points/retake/6/place_at_once", "5/4/2/5/10/ACC+SEC+SMT+DWN/supply/retake/20/any_set"]
CH = "0123456789SGWH ,.[]\"\\-=*\n:_abcdeprstuwy"
for g in range(300):
    rt = R.choice(RULES); rules = parse_rules(rt)
    seed = None if R.random() < 0.5 else R.randrange(2**64)
    s = new_game(seed, rules); moves = []
    n = R.choice([0, 3, 10, 10**6])
    while not s.is_over and len(moves) < n:
        m = R.choice(legal_moves(s)); moves.append(m); s = apply(s, m)
    players = None if R.random() < 0.5 else ["Ann", 'B"o\\']
    rec = record_game(moves, seed=seed, rules=rules, players=tuple(players) if players else None)
    want_text, want_json = format_record(rec), json.loads(to_json(rec))
    got = rust({"id": "r", "kind": "x_record", "rules": rt, "seed": None if seed is None else str(seed), "moves": [format_move(m) for m in moves], "players": players})
    if got.get("text") != want_text or got.get("json") != want_json:
        diffs += 1
        if diffs < 4: print("DIFF record", want_text[:300], "\n---\n", str(got)[:300])
    # mutated text
    t = list(want_text); k = R.randrange(len(t)); t[k] = R.choice(CH); t = "".join(t)
    try:
        pr = parse_record(t); want = {"ok": True, "text": format_record(pr)}
    except Exception as e:
        want = {"ok": False, "position": getattr(e, "position", None)}
    got = rust({"id": "r", "kind": "x_parse_record", "text": t})
    g2 = {"ok": True, "text": got.get("text")} if got.get("ok") else {"ok": False, "position": got["error"].get("position")}
    if want != g2:
        diffs += 1
        if diffs < 8: print("DIFF parse", repr(t[:400]), want, g2)
print("records diffs", diffs)
