"""Compares two tessel-tune reports of one model: without (OFF) and with
(ON) the analytic start. Prints, per task, the trials outside and inside the
search and whether the best beats the default by the start margin (4x)."""
import json
import sys

off, on = (json.load(open(p)) for p in sys.argv[1:3])
for index, (a, b) in enumerate(zip(off["tasks"], on["tasks"])):
    outside = b["trials"] - b["search_trials"]
    gain = b["default_latency_us"] / b["best_latency_us"]
    print(f"task {index}: off {a['trials'] - a['search_trials']} outside "
          f"{a['search_trials']} searched; on {outside} outside "
          f"{b['search_trials']} searched, best {'>=' if gain >= 4 else '<'} "
          f"4x the default")
better = on["weighted_latency_us"] < off["weighted_latency_us"]
print("weighted latency:", "lower with the start" if better else "NOT lower")
