"""Weighted latency, trials and virtual time of the ResNet-18 runs."""
import csv, json, os, sys
from importlib.machinery import SourceFileLoader
here = os.getcwd()
es = SourceFileLoader('es', sys.argv[1] + '/scripts/eto-sets').load_module()
rows = es.read_manifest('eto-resnet18')
print("| ResNet-18 run | latency (us) | trials | time (s) |")
print("|---|---|---|---|")
for name in sys.argv[2:]:
    path = os.path.join(here, name + '.json')
    if not os.path.exists(path):
        continue
    r = es.analyse(rows, json.load(open(path)))
    print(f"| {name} | {r['latency_us']:.1f} | {r['trials']} | {r['elapsed_s']:.0f} |")
