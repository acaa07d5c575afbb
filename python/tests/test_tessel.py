"""The tessel package against the library: results, records, errors."""

import os
import signal
import threading

import pytest

import tessel
from conftest import MATMUL, TWO_TASKS, have_ptxas

FAST = dict(measure="sim:h100", sim_fidelity="analytic", seed=1)


def test_tasks_are_deduplicated_with_weights():
    tasks = tessel.tasks(TWO_TASKS)
    assert [(t.op_kind, t.weight, t.flops) for t in tasks] == [
        ("matmul", 2, 2 * 128 * 256 * 64),
        ("matmul", 1, 2 * 128 * 64 * 32),
    ]
    assert tasks[0].description == "matmul 128x256 * 256x64 f32"
    assert tasks[0].workload_key.startswith("linalg.matmul ins(")
    assert tasks[0].sketches >= 1


TWO_LAYERS_WITH_SPLAT_BIASES = """
#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @f(%x: tensor<32x48xf32>, %w: tensor<48x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %b1 = arith.constant dense<0.5> : tensor<48xf32>
  %b2 = arith.constant dense<0.25> : tensor<48xf32>
  %e = tensor.empty() : tensor<32x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<32x48xf32>, tensor<48x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  %1 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%0, %b1 : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  %2 = linalg.matmul ins(%1, %w : tensor<32x48xf32>, tensor<48x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  %3 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%2, %b2 : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  return %3 : tensor<32x48xf32>
}
"""


def test_ignoring_float_constants_makes_layers_one_task(tmp_db):
    structural = tessel.tasks(TWO_LAYERS_WITH_SPLAT_BIASES)
    assert [t.weight for t in structural] == [1, 1]
    merged = tessel.tasks(TWO_LAYERS_WITH_SPLAT_BIASES,
                          task_equality="ignore-float-constants")
    assert [t.weight for t in merged] == [2]
    assert "arith.addf(%a0, cst:f32)" in merged[0].workload_key
    with pytest.raises(tessel.TesselError, match="task_equality='values' is "
                       "not one of: structural, ignore-float-constants"):
        tessel.tasks(TWO_LAYERS_WITH_SPLAT_BIASES, task_equality="values")

    # tune() takes it as an option, stored with the run.
    result = tessel.tune(TWO_LAYERS_WITH_SPLAT_BIASES, db=tmp_db, trials=8,
                         strategy="random",
                         task_equality="ignore-float-constants", **FAST)
    assert [(t.weight, t.workload_key) for t in result.tasks] == [
        (2, merged[0].workload_key)]
    runs = tessel.Records(tmp_db).runs()
    assert runs[0].options["task_equality"] == "ignore-float-constants"


def test_tune_result_matches_the_records(tmp_db):
    seen = []
    result = tessel.tune(MATMUL, db=tmp_db, trials=16, progress=seen.append,
                         **FAST)
    assert result.run_id == 1
    assert result.trials == 16
    assert result.simulated and result.measurer.startswith("sim:h100")
    assert [t.description for t in result.tasks] == [
        "matmul 128x256 * 256x64 f32"]

    # Progress after each round, the last at the budget.
    assert seen and all(isinstance(p, tessel.Progress) for p in seen)
    assert [p.trials for p in seen] == sorted(p.trials for p in seen)
    assert seen[-1].trials == 16 and seen[-1].budget == 16
    assert seen[-1].simulated

    records = tessel.Records(tmp_db)
    runs = records.runs()
    assert [(r.id, r.strategy, r.simulated) for r in runs] == [
        (1, "evolutionary", True)]
    assert runs[0].options["trials"] == 16
    # Options not given take tessel-tune's defaults (double buffering, the
    # analytic start), not those of runs stored before they existed.
    assert runs[0].options["max_stages"] == 2
    assert runs[0].options["start_samples"] == 256
    assert runs[0].model_source == MATMUL

    trials = records.trials(result.run_id)
    # The 16 trials, the default schedule and the analytic start (its
    # default is predicted at least 4x slower than a sampled schedule; both
    # are trial 0).
    assert sorted(t.trial for t in trials) == [0] + list(range(17))
    best_us = min(t.median_us for t in trials if t.ok)
    assert result.tasks[0].best_latency_us == pytest.approx(best_us)
    assert result.weighted_latency_us == pytest.approx(best_us)

    key = result.tasks[0].workload_key
    best = records.best(key, trials[0].target)
    assert best is not None and best.median_us == pytest.approx(best_us)
    assert len(records.measurements(key, trials[0].target)) == 18
    assert [t["workload_key"] for t in records.tasks()] == [key]


def test_a_second_run_appends(tmp_db):
    tessel.tune(MATMUL, db=tmp_db, trials=8, **FAST)
    second = tessel.tune(MATMUL, db=tmp_db, trials=8, strategy="random",
                         **FAST)
    assert second.run_id == 2
    assert [r.strategy for r in tessel.Records(tmp_db).runs()] == [
        "evolutionary", "random"]


def test_an_exception_in_progress_stops_the_run(tmp_db):
    class Stop(Exception):
        pass

    def progress(p):
        raise Stop(p.trials)

    with pytest.raises(Stop):
        tessel.tune(MATMUL, db=tmp_db, trials=200, measures_per_round=8,
                    progress=progress, **FAST)
    # The first round's records are committed; no more rounds ran.
    trials = tessel.Records(tmp_db).trials(1)
    # The default, the analytic start and at most one round of 8.
    assert 2 < len(trials) <= 10


def test_ctrl_c_stops_the_run(tmp_db):
    # Python's own handler, also where SIGINT is ignored by the parent (lit).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # Minutes of work: only the interrupt ends it in time.
            tessel.tune(MATMUL, db=tmp_db, trials=10**6, time_limit=60,
                        measures_per_round=8, **FAST)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    (run,) = tessel.Records(tmp_db).runs()
    assert 0 < len(tessel.Records(tmp_db).trials(run.id)) < 10**6


def test_apply_and_compile(tmp_db):
    result = tessel.tune(MATMUL, db=tmp_db, trials=8, **FAST)
    tuned = tessel.apply(MATMUL, tmp_db)
    best = tessel.Records(tmp_db).best(result.tasks[0].workload_key,
                                      result.measurer)
    assert best.config in tuned and best.sketch in tuned

    ptx = tessel.compile(tuned, format="isa")
    assert "gpu.binary @matmul_kernel" in ptx.module
    assert "linalg." not in ptx.module
    assert ptx.kernels == []


def test_tf32_is_opt_in_when_tuning_and_compiling(tmp_db):
    # Without allow_tf32, f32 matmuls get no tensor_core sketch.
    strict = tessel.tune(MATMUL, db=tmp_db, trials=8, **FAST)
    records = tessel.Records(tmp_db)
    key = strict.tasks[0].workload_key
    assert not any("tensor_core" in m.sketch
                   for m in records.measurements(key, strict.measurer))
    assert "allow_tf32" not in records.runs()[0].options

    result = tessel.tune(MATMUL, db=tmp_db, trials=64, allow_tf32=True,
                         **FAST)
    assert records.runs()[1].options["allow_tf32"] is True
    # With it, TF32 tensor_core schedules are measured (whether one is the
    # fastest depends on the draws).
    tensor_core = [m for m in records.measurements(key, result.measurer)
                   if "tensor_core" in m.sketch and m.status == "ok"]
    assert tensor_core
    fastest = min(tensor_core, key=lambda m: m.median_us)
    best = records.best(key, result.measurer)
    tuned = tessel.apply(MATMUL, tmp_db)
    assert best.sketch in tuned and best.config in tuned
    tuned = tuned.replace(best.sketch, fastest.sketch).replace(
        best.config, fastest.config)
    # The TF32 schedule compiles only with the permission.
    with pytest.raises(tessel.TesselError, match="computes in TF32"):
        tessel.compile(tuned, format="isa")
    ptx = tessel.compile(tuned, format="isa", allow_tf32=True)
    assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx.module


@pytest.mark.skipif(not have_ptxas(), reason="needs ptxas")
def test_compile_reports_kernel_resources():
    compiled = tessel.compile(MATMUL, chip="sm_90")
    assert [k.kernel for k in compiled.kernels] == ["matmul_kernel"]
    kernel = compiled.kernels[0]
    assert kernel.registers > 0
    # Spilled registers live in the stack frame ptxas reports.
    assert 0 <= kernel.spill_store_bytes <= kernel.stack_bytes
    # Two 2 KiB tiles, double-buffered by default.
    assert kernel.shared_memory_bytes == 8192
    assert kernel.ptx["cp_async"] > 0
    # The static report of its PTX: the staging loop's barriers, its FMAs
    # fed by shared loads, the result stored to global memory.
    assert kernel.ptx["bar_sync_in_loops"] >= 1
    assert kernel.ptx["fma_f32_in_loops"] > 0
    assert kernel.fma_per_shared_load > 1
    assert sum(n for key, n in kernel.ptx.items()
               if key.startswith("st_global_")) > 0


@pytest.mark.skipif(not have_ptxas(), reason="needs ptxas")
def test_compile_cache_serves_a_rerun(tmp_path):
    cache = tmp_path / "cache"

    def entries():
        return sorted(p.name for p in cache.iterdir()
                      if p.name.startswith("llvmcache-"))

    cold = tessel.compile(MATMUL, chip="sm_90", cache_dir=str(cache))
    # The compiled module, the kernel's PTX and its cubin.
    stored = entries()
    assert len(stored) == 3
    warm = tessel.compile(MATMUL, chip="sm_90", cache_dir=str(cache))
    assert warm.module == cold.module
    assert warm.kernels == cold.kernels
    assert entries() == stored
    # Without a cache nothing is looked up, and the binaries are the same.
    uncached = tessel.compile(MATMUL, chip="sm_90", cache_dir="off")
    assert uncached.kernels == cold.kernels


def test_malformed_text_raises_with_the_location():
    with pytest.raises(tessel.TesselError) as error:
        tessel.tasks("func.func @f( {\n", source_name="model.mlir")
    assert str(error.value).startswith(
        "model.mlir:1:14: error: expected non-function type")


def test_invalid_schedule_raises_with_the_location():
    bad = MATMUL.replace(
        "%0 = linalg.matmul ins",
        "%0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling,"
        " shared = [0, 1], register_accumulator>, tessel.config = "
        "#tessel.config<tiles = [[4, 2, 8, 2, 3], [4, 1, 16, 1, 1], "
        "[32, 2, 4]], unroll = 64, vector = [1, 1]>} ins")
    with pytest.raises(tessel.TesselError) as error:
        tessel.compile(bad, format="isa")
    assert str(error.value).startswith(
        "<input>:3:8: error: tile sizes of loop 0 multiply to 384, not to "
        "the loop extent 128")


def test_a_model_without_a_tunable_op_raises_with_the_reason(tmp_db):
    dynamic = MATMUL.replace("tensor<128x", "tensor<?x")
    assert "tensor<?x" in dynamic
    with pytest.raises(tessel.TesselError) as error:
        tessel.tune(dynamic, db=tmp_db, trials=2, **FAST)
    assert "error: 'linalg.matmul' is not tuned: its shapes are dynamic " \
        "(tensor<?x" in str(error.value)


def test_bad_tuning_options_raise(tmp_db):
    with pytest.raises(tessel.TesselError,
                       match=r"^unknown strategy 'annealing' \(known: "):
        tessel.tune(MATMUL, db=tmp_db, strategy="annealing", trials=4)
    with pytest.raises(tessel.TesselError,
                       match=r"^trials=0 is out of range: at least 1$"):
        tessel.tune(MATMUL, db=tmp_db, trials=0)
    with pytest.raises(tessel.TesselError,
                       match=r"'no_such_option'"):
        tessel.tune(MATMUL, db=tmp_db, trials=4, no_such_option=1)


def test_unreadable_databases_raise(tmp_path):
    not_a_db = tmp_path / "model.mlir"
    not_a_db.write_text(MATMUL)
    with pytest.raises(tessel.TesselError,
                       match="cannot open records database: file is not a "
                             "database"):
        tessel.Records(str(not_a_db))
    with pytest.raises(tessel.TesselError,
                       match="records database does not exist"):
        tessel.Records(str(tmp_path / "missing.db"))
    with pytest.raises(tessel.TesselError,
                       match="file is not a database"):
        tessel.tune(MATMUL, db=str(not_a_db), trials=4, **FAST)
    with pytest.raises(tessel.TesselError,
                       match="records database does not exist"):
        tessel.apply(MATMUL, str(tmp_path / "missing.db"))


def test_bad_pipeline_raises():
    with pytest.raises(tessel.TesselError,
                       match="does not refer to a registered pass"):
        tessel.compile(MATMUL, pipeline="builtin.module(no-such-pass)")


def test_export_spec_gives_the_schedules_of_apply(tmp_db, tmp_path):
    tessel.tune(MATMUL, db=tmp_db, trials=8, **FAST)
    spec = tessel.export_spec(MATMUL, tmp_db)
    assert (spec.workloads, spec.annotated) == (1, 1)
    assert "transform.foreach_match" in spec.text
    assert "transform.tessel.match.workload" in spec.text
    path = tmp_path / "spec.mlir"
    path.write_text(spec.text)
    by_spec = tessel.compile(
        MATMUL, pipeline="builtin.module(transform-preload-library{"
        f"transform-library-paths={path}}},transform-interpreter)")
    assert by_spec.module == tessel.apply(MATMUL, tmp_db)


def test_export_spec_without_records_raises(tmp_db):
    tessel.tune(MATMUL, db=tmp_db, trials=4, **FAST)
    other = MATMUL.replace("128x", "64x")
    with pytest.raises(tessel.TesselError, match="has a tuning record"):
        tessel.export_spec(other, tmp_db)


def test_bad_compile_options_raise_and_do_not_exit():
    with pytest.raises(tessel.TesselError,
                       match=r"tessel-to-cuda: unsupported chip 'sm_60'; "
                             r"expected sm_70 or newer"):
        tessel.compile(MATMUL, chip="sm_60")
    with pytest.raises(tessel.TesselError,
                       match=r"tessel-to-cuda: unknown format 'foo'; "
                             r"expected isa, bin or fatbin"):
        tessel.compile(MATMUL, format="foo")
