// Strategies with their options: --list-strategies, specs in MLIR's
// pass-option syntax, one-line errors for bad specs, and --rerun repeating a
// recorded run with identical records.

// RUN: tessel-tune --list-strategies | FileCheck %s --check-prefix=LIST
// LIST: Strategies (--strategy="NAME option=value ..."):
// LIST-NEXT:   dgd: dynamic gradient descent over tile sizes (ICS'24)
// LIST:          window          = 3 (int: at least 1)  Candidates measured per window
// LIST:   eto: reuse-based tuning of the model's operator set (PVLDB'22): a reuse tree over tasks, bridges and stored workloads; roots by the backend, the rest by Algorithm 1
// LIST:          backend           = evolutionary (string)  The registered per-task strategy that tunes the reuse tree's roots (with its default cost model)
// LIST:   eto-topk: ETO's TopK baseline: the reuse tree of `eto`, each reusing task tries its source's k best programs
// LIST:          k                 = 3 (int: at least 1)  Programs of the source applied per round
// LIST:   evolutionary: Ansor's evolutionary search under a learned cost model
// LIST:          epsilon-greedy       = 0.05 (number: 0 to 1)  Share of each batch drawn at random instead of by the model (Ansor: 0.05)
// LIST:          population           = 2048 (int: at least 1)  Population size
// LIST:   psa: Pruner: PSA-pruned target spaces ranked by a learned model
// LIST:          form                 = paper (string: paper, code)  PSA formulas: paper or code
// LIST:   random: uniform samples of the search space (the baseline)
// LIST: Cost models (--cost-model="NAME option=value ..."):
// LIST:   random: random scores
// LIST:   xgboost: gradient-boosted trees
// LIST:          tree-method = hist (string: hist, exact, approx)
// LIST: Feature sets (--features=NAME):
// LIST-NEXT:   af: DGD's seven analytical features (ICS'24)
// LIST-NEXT:   ansor: Ansor's per-statement features
// LIST-NEXT:   pruner: Pruner's statement and data-flow features

// Bad specs: one line each, a non-zero exit, no database.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: not tessel-tune %s --strategy="evolutionary populaton=64" --db=%t.db 2>&1 | FileCheck %s --check-prefix=UNKNOWN --implicit-check-not={{.}}
// UNKNOWN: tessel-tune: strategy 'evolutionary': unknown option 'populaton' (options: diversity-filter, epsilon-greedy, generations, measured-ratio, mutation-probability, population, tile-mutation-weight)
// RUN: not tessel-tune %s --strategy="dgd window=0" --db=%t.db 2>&1 | FileCheck %s --check-prefix=RANGE --implicit-check-not={{.}}
// RANGE: tessel-tune: strategy 'dgd': window=0 is out of range: at least 1
// RUN: not tessel-tune %s --strategy="evolutionary population=many" --db=%t.db 2>&1 | FileCheck %s --check-prefix=TYPE --implicit-check-not={{.}}
// TYPE: tessel-tune: strategy 'evolutionary': population=many is not an integer
// RUN: not tessel-tune %s --strategy=anneal --db=%t.db 2>&1 | FileCheck %s --check-prefix=STRATEGY --implicit-check-not={{.}}
// STRATEGY: tessel-tune: unknown strategy 'anneal' (known: dgd, eto, eto-topk, evolutionary, {{(fasor, )?}}psa, random)
// RUN: not tessel-tune %s --cost-model="xgboost tree-method=forest" --db=%t.db 2>&1 | FileCheck %s --check-prefix=MODEL --implicit-check-not={{.}}
// MODEL: tessel-tune: cost model 'xgboost': tree-method=forest is not one of: hist, exact, approx
// RUN: not tessel-tune %s --strategy=random --features=af --db=%t.db 2>&1 | FileCheck %s --check-prefix=MODELLESS --implicit-check-not={{.}}
// MODELLESS: tessel-tune: strategy 'random' uses no cost model or features
// A flag given twice would drop the first one's options: refused.
// RUN: not tessel-tune %s --strategy=random --strategy="evolutionary population=64" --db=%t.db 2>&1 | FileCheck %s --check-prefix=TWICE --implicit-check-not={{.}}
// TWICE: tessel-tune: --strategy is given 2 times; give it once
// RUN: test ! -e %t.db

// A run stores its options in full; --rerun repeats it as run 2 with the
// same records (every config, status and time), from the stored model.
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="evolutionary population=128 generations=2" --start-samples=0 --trials=20 --measures-per-round=10 --seed=9 --db=%t.db --quiet | FileCheck %s --check-prefix=RUN1
// RUN1: 20 trials in
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t.db "select json_extract(options_json, '$.strategy') || ' | ' || json_extract(options_json, '$.cost_model') from runs where id = 1" | FileCheck %s --check-prefix=STORED
// STORED: evolutionary diversity-filter=0 epsilon-greedy=0.05 generations=2 measured-ratio=0.2 mutation-probability=0.85 population=128 tile-mutation-weight=0.9 | xgboost init={} objective=auto save={} threads=1 tree-method=hist
// RUN: tessel-tune --rerun=1 --db=%t.db --quiet | FileCheck %s --check-prefix=RUN1
// RUN: /usr/bin/python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); q='select c.config, m.status, m.median_us, m.trial from measurements m join configs c on m.config_id = c.id where m.run_id = %%d order by m.id'; a=c.execute(q %% 1).fetchall(); b=c.execute(q %% 2).fetchall(); print(len(a), len(b), 'identical' if a == b else 'different')" %t.db | FileCheck %s --check-prefix=SAME
// SAME: 21 21 identical
// RUN: not tessel-tune --rerun=1 --trials=5 --db=%t.db 2>&1 | FileCheck %s --check-prefix=RERUNFLAG --implicit-check-not={{.}}
// RERUNFLAG: tessel-tune: --rerun repeats the stored options of run 1; --trials cannot change them (start a new run instead)
// RUN: not tessel-tune %s --rerun=1 --db=%t.db 2>&1 | FileCheck %s --check-prefix=RERUNMODEL
// RERUNMODEL: tessel-tune: --rerun takes the model stored with the run, not {{.*}}tessel-tune-registry.mlir
// RUN: not tessel-tune --rerun=7 --db=%t.db 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tessel-tune: no run 7 in

func.func @main(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>)
                     outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
