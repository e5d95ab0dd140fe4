"""Differential run of the native adapter against the Python reference (used while porting).

Usage: python native/tools/diff_adapter.py ADAPTER [SEED] [GAMES]

Random games under many rule sets, in both chance modes; after every step both cores must agree
on legal_moves, apply (states and illegal-move rules), score, observe, tensor, sample_state,
perft/divide, and on the errors (type, field, position, path) of randomly mutated state,
observation, move and JSON texts. Prints each difference and a summary line.
"""
import json, random, subprocess, sys
from hatsuden_rules.conformance.adapter import handle
from hatsuden_rules import parse_state
from hatsuden_rules.serialization import to_json
from hatsuden_rules.notation import parse_observation as pparse_obs

RULES = """1/2/2/1/1/ACC/city_points/noretake/2
2/2/1/1/2/ACC+SEC+SMT+DWN/city_points/noretake/2
2/2/1/1/2/SMT/city_points/noretake/2
2/3/2/2/4/ACC+SEC+SMT+DWN/city_points/retake/off
3/2/2/2/3/ACC+SEC+SMT+DWN/city_points/retake/6/place_at_once
3/3/2/3/4/ACC+SEC+SMT+DWN/city_points/retake/6/any_set
3/3/2/3/6/ACC+SEC+SMT+DWN/city_points/retake/6
4/4/1/4/8/ACC+DWN/supply/noretake/8
5/4/2/5/10/-/city_points/retake/20
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/noretake/20
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/place_at_once
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/place_at_once/any_set
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/5
5/4/2/5/10/ACC+SEC+SMT+DWN/supply/retake/20
3/3/2/3/4/ACC+SEC+SMT+DWN/city_points/retake/6/place_at_once/any_set
2/3/1/2/3/ACC+SMT/supply/retake/3/any_set
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off
5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/noretake/off/place_at_once/any_set
1/1/2/1/1/-/supply/noretake/off
4/5/1/3/6/ACC+SEC+SMT+DWN/city_points/retake/4""".split("\n")

proc = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def rust(req):
    proc.stdin.write(json.dumps(req) + "\n"); proc.stdin.flush()
    return json.loads(proc.stdout.readline())
def py(req):
    return json.loads(json.dumps(handle(dict(req))))

def norm(r):
    r = dict(r); r.pop("id", None)
    if not r.get("ok"):
        e = dict(r.get("error", {})); e.pop("message", None); r["error"] = e
    return r

fails = 0
def cmp(req, what):
    global fails
    req = {"id": "d", **req}
    a, b = norm(py(req)), norm(rust(req))
    if a != b:
        fails += 1
        if fails <= 15:
            print("DIFF", what, json.dumps(req)[:600]); print("  py  ", json.dumps(a)[:600]); print("  rust", json.dumps(b)[:600])
    return a

R = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
games = int(sys.argv[3]) if len(sys.argv) > 3 else 200
CHARS = "0123456789SGWHB-/,;.#~*v+=[]:_ abcdefghijklmnopqrstuvwxyzACDEFIMNPTX?"
steps = 0
for g in range(games):
    rules = R.choice(RULES)
    seed = None if R.random() < 0.5 else str(R.randrange(-2**70, 2**70))
    r = cmp({"kind": "new_game", "rules": rules, "seed": seed}, "new_game")
    state = r["state"]
    pool = set()
    while True:
        steps += 1
        lm = cmp({"kind": "legal_moves", "state": state}, "legal_moves")
        moves = lm.get("moves", [])
        pool.update(moves)
        if R.random() < 0.3:
            cmp({"kind": "score", "state": state}, "score")
            p = R.randrange(2)
            cmp({"kind": "observe", "state": state, "player": p}, "observe")
            cmp({"kind": "tensor", "state": state, "player": p}, "tensor")
            cmp({"kind": "sample_state", "state": state, "player": p, "seed": str(R.randrange(2**64))}, "sample_state")
            o = py({"id": "o", "kind": "observe", "state": state, "player": p})
            if o.get("ok"):
                cmp({"kind": "parse", "format": "notation", "type": "observation", "text": o["observation"]}, "parse obs")
                oj = json.loads(to_json(pparse_obs(o["observation"])))
                cmp({"kind": "parse", "format": "json", "type": "observation", "text": json.dumps(oj)}, "parse obs json")
                key = R.choice(list(oj.keys()))
                v = [None, 1, "x", [], {}, True, 0, -1][R.randrange(8)]
                if isinstance(oj[key], list) and oj[key] and R.random() < 0.5:
                    i = R.randrange(len(oj[key])); oj[key][i] = v
                else:
                    oj[key] = v
                cmp({"kind": "parse", "format": "json", "type": "observation", "text": json.dumps(oj)}, "parse mutated obs json")
            if R.random() < 0.3:
                js = to_json(parse_state(state))
                cmp({"kind": "parse", "format": "json", "type": "state", "text": js}, "parse json state")
            # mutated state text
            t = list(state); k = R.randrange(len(t))
            op = R.randrange(3)
            if op == 0: t[k] = R.choice(CHARS)
            elif op == 1: del t[k]
            else: t.insert(k, R.choice(CHARS))
            cmp({"kind": "parse", "format": "notation", "type": "state", "text": "".join(t)}, "parse mutated state")
            if o.get("ok"):
                t = list(o["observation"]); k = R.randrange(len(t)); op = R.randrange(3)
                if op == 0: t[k] = R.choice(CHARS)
                elif op == 1: del t[k]
                else: t.insert(k, R.choice(CHARS))
                cmp({"kind": "parse", "format": "notation", "type": "observation", "text": "".join(t)}, "parse mutated obs")
            js = json.loads(to_json(parse_state(state)))
            key = R.choice(list(js.keys()))
            choice = R.randrange(6)
            v = [None, 1, "x", [], {}, True][choice]
            if isinstance(js[key], list) and js[key] and R.random() < 0.5:
                i = R.randrange(len(js[key])); js[key][i] = v
            else:
                js[key] = v
            cmp({"kind": "parse", "format": "json", "type": "state", "text": json.dumps(js)}, "parse mutated json")
            sc = py({"id": "s", "kind": "score", "state": state})
            cmp({"kind": "parse", "format": "json", "type": "score", "text": json.dumps(sc["score"])}, "parse score json")
        if R.random() < 0.3 and moves:
            mv = list(R.choice(moves)); k = R.randrange(len(mv)); mv[k] = R.choice(CHARS)
            cmp({"kind": "parse", "format": "notation", "type": "move", "text": "".join(mv), "rules": rules}, "parse mutated move")
            cmp({"kind": "apply", "state": state, "move": "".join(mv)}, "apply mutated move")
        if R.random() < 0.3 and pool:
            cmp({"kind": "apply", "state": state, "move": R.choice(sorted(pool))}, "apply any")
        if R.random() < 0.05:
            cmp({"kind": "perft", "state": state, "depth": 2, "divide": True}, "perft")
        if not moves:
            break
        m = R.choice(moves)
        r = cmp({"kind": "apply", "state": state, "move": m}, "apply")
        if not r.get("ok"):
            break
        state = r["state"]
import collections
print(f"games {games} steps {steps} diffs {fails}")
