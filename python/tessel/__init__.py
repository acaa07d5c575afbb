"""Tessel from Python: tasks, compile, tune, apply, and the records.

    import tessel
    text = open("model.mlir").read()
    for task in tessel.tasks(text):
        print(task.op_kind, task.flops, task.weight)
    result = tessel.tune(text, measure="sim:h100", sim_fidelity="analytic",
                         trials=200, db="model.db")
    tuned = tessel.apply(text, "model.db")
    compiled = tessel.compile(tuned, chip="sm_90")
    for kernel in compiled.kernels:
        print(kernel.kernel, kernel.registers)

Every error of the library raises TesselError (a RuntimeError) whose message
is the diagnostic text, located in the given text ("<input>:3:8: error: ...",
or the `source_name` passed in). Results measured by `sim:<device>` are
simulated: `TuneResult.simulated` says so.
"""

import dataclasses
import json
from typing import Callable, Dict, List, Optional

from . import _tessel
from ._tessel import TesselError

__all__ = [
    "TesselError", "Task", "Kernel", "Compiled", "TaskResult", "TuneResult",
    "Progress", "Run", "Trial", "Best", "Records", "tasks", "compile",
    "tune", "apply", "Spec", "export_spec",
]


@dataclasses.dataclass(frozen=True)
class Task:
    """One distinct kernel of a model (a tuning task)."""
    workload_key: str
    op_kind: str
    flops: float
    weight: int
    description: str
    fused_consumers: int
    sketches: int


@dataclasses.dataclass(frozen=True)
class Kernel:
    """ptxas's resources of one compiled kernel, and the static report of
    its PTX (`ptx`: barriers, global and shared accesses by width in bits,
    FMAs, in the kernel and in its loops; include/tessel/Dialect/Tessel/
    Transforms/PtxReport.h). `fma_per_shared_load` is FMAs per shared load
    in the kernel's loops."""
    module: str
    kernel: str
    registers: int
    shared_memory_bytes: int
    spill_store_bytes: int
    spill_load_bytes: int
    stack_bytes: int
    #: The part of shared_memory_bytes its launches allocate dynamically
    #: (tiles above the 48 KiB static limit).
    dynamic_shared_memory_bytes: int = 0
    ptx: Dict[str, int] = dataclasses.field(default_factory=dict)

    @property
    def fma_per_shared_load(self) -> float:
        loads = self.ptx.get("ld_shared_in_loops", 0)
        return self.ptx.get("fma_f32_in_loops", 0) / loads if loads else 0.0


@dataclasses.dataclass(frozen=True)
class Compiled:
    """A module after the tessel-to-cuda pipeline."""
    module: str
    kernels: List[Kernel]


@dataclasses.dataclass(frozen=True)
class Progress:
    """The state of a tuning run after a round."""
    task_index: int
    task_count: int
    trials: int
    budget: int
    best_gflops: float
    elapsed_s: float
    simulated: bool


@dataclasses.dataclass(frozen=True)
class TaskResult:
    """The best schedule tuning found for a task."""
    workload_key: str
    description: str
    weight: int
    flops: float
    trials: int
    best_latency_us: Optional[float]
    best_gflops: Optional[float]
    default_latency_us: Optional[float]
    in_model: bool


@dataclasses.dataclass(frozen=True)
class TuneResult:
    """What a tuning run did (the JSON report of tessel-tune --report)."""
    run_id: int
    measurer: str
    simulated: bool
    strategy: str
    trials: int
    elapsed_s: float
    tasks: List[TaskResult]
    report: dict

    @property
    def weighted_latency_us(self) -> float:
        """Sum of weight x best latency over the model's tuned tasks."""
        return sum(t.weight * t.best_latency_us for t in self.tasks
                   if t.in_model and t.best_latency_us is not None)


@dataclasses.dataclass(frozen=True)
class Run:
    """A tuning run of a records database."""
    id: int
    started_at: float
    strategy: str
    seed: int
    measurer: str
    simulated: bool
    options: dict
    device: dict
    tessel_version: str
    model_source: str


@dataclasses.dataclass(frozen=True)
class Trial:
    """One measurement of a records database."""
    id: int
    run_id: int
    task_id: int
    sketch: str
    config: str
    target: str
    simulated: bool
    status: str
    median_us: float
    min_us: float
    max_us: float
    stddev_us: float
    repeats: int
    registers: int
    spill_bytes: int
    shared_bytes: int
    message: str
    measured_at: float
    elapsed_s: float
    trial: int

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclasses.dataclass(frozen=True)
class Best:
    """The fastest successful measurement of a workload."""
    config_id: int
    sketch: str
    config: str
    target: str
    simulated: bool
    median_us: float
    gflops: float


def _run(entry: dict) -> Run:
    entry = dict(entry)
    entry["options"] = json.loads(entry.pop("options_json") or "{}")
    entry["device"] = json.loads(entry.pop("device_json") or "{}")
    return Run(**entry)


class Records:
    """Read access to a records database (opened read-only).

    Raises TesselError when the file is missing, not an SQLite database, or
    not a Tessel records database.
    """

    def __init__(self, path: str):
        self._db = _tessel.Records(str(path))

    @property
    def path(self) -> str:
        return self._db.path

    def runs(self) -> List[Run]:
        """Every run, oldest first."""
        return [_run(r) for r in self._db.runs()]

    def run(self, run_id: int) -> Run:
        return _run(self._db.run(run_id))

    def tasks(self) -> List[dict]:
        """Every task: id, workload_key, op_kind, flops, weight, description."""
        return self._db.tasks()

    def trials(self, run_id: int) -> List[Trial]:
        """Every measurement of run `run_id`, oldest first."""
        return [Trial(**t) for t in self._db.run_measurements(run_id)]

    def measurements(self, workload_key: str, target: str) -> List[Trial]:
        """Every measurement of a workload on `target`, oldest first."""
        return [Trial(**t)
                for t in self._db.task_measurements(workload_key, target)]

    def best(self, workload_key: str, target: str,
             exact_target: bool = True) -> Optional[Best]:
        """The fastest ok measurement on `target` (or, unless
        `exact_target`, on any target, preferring `target`)."""
        entry = self._db.best(workload_key, target, exact_target)
        return Best(**entry) if entry is not None else None


def tasks(text: str, source_name: str = "<input>",
          include_simple_tasks: bool = False,
          task_equality: str = "structural") -> List[Task]:
    """The tuning tasks of a model (linalg on tensors), in order of first
    occurrence, deduplicated by workload key. `task_equality` is
    "structural" or "ignore-float-constants" (kernels that differ only in
    the values of float constants are one task; tune() takes the same
    option)."""
    return [Task(**t)
            for t in _tessel.tasks(text, source_name, include_simple_tasks,
                                   task_equality)]


def compile(text: str, chip: str = "sm_90", format: str = "bin",
            default_configs: bool = True, pipeline: Optional[str] = None,
            source_name: str = "<input>", allow_tf32: bool = False,
            cache_dir: Optional[str] = None) -> Compiled:
    """Runs tessel-to-cuda (or the textual `pipeline`) on the model.
    `allow_tf32` lets tensor_core schedules of f32 contractions compute in
    TF32 (results differ from strict fp32); without it they raise.
    `cache_dir` is the compile cache (docs/CompileCache.md): None for the
    default ($TESSEL_CACHE_DIR, else ~/.cache/tessel), "off" for none."""
    if pipeline is None:
        cache = "" if cache_dir is None else f" cache-dir={cache_dir}"
        pipeline = (f"builtin.module(tessel-to-cuda{{chip={chip} "
                    f"format={format} default-configs="
                    f"{'true' if default_configs else 'false'} allow-tf32="
                    f"{'true' if allow_tf32 else 'false'}{cache}}})")
    result = _tessel.compile(text, pipeline, source_name)
    return Compiled(result["module"],
                    [Kernel(**k) for k in result["kernels"]])


def apply(text: str, db: str, target: Optional[str] = None,
          source_name: str = "<input>") -> str:
    """The model with each tunable op annotated with its best record of the
    database `db` (preferring `target`'s records)."""
    return _tessel.apply(text, str(db), target or "", source_name)


@dataclasses.dataclass(frozen=True)
class Spec:
    """Tuned schedules as a transform library (docs/TuningSpec.md)."""
    text: str
    workloads: int
    annotated: int


def export_spec(text: str, db: str, target: Optional[str] = None,
                source_name: str = "<input>") -> Spec:
    """The transform library that annotates each of the model's ops with
    its best record of `db` (as `tessel-tune --export-spec`). Apply it with
    `mlir-opt --load-dialect-plugin=libTesselPlugin.so
    --transform-preload-library=transform-library-paths=FILE
    --transform-interpreter`, or with `compile(..., pipeline=...)`."""
    result = _tessel.export_spec(text, str(db), target or "", source_name)
    return Spec(result["spec"], result["workloads"], result["annotated"])


def tune(text: str, db: str, measure: str = "sim:h100",
         strategy: str = "evolutionary", trials: int = 1000,
         progress: Optional[Callable[[Progress], None]] = None,
         source_name: str = "<input>", **options) -> TuneResult:
    """Tunes the model into the records database `db` (created if missing).

    `options` are further tuning options with the names of tessel-tune's
    report (`sim_fidelity`, `sim_trial_seconds`, `seed`, `scheduler`,
    `cost_model`, `features`, `measures_per_round`, `time_limit`, `resume`,
    `jobs`, ...). `progress` is called with a Progress after each round; an
    exception it raises (or Ctrl-C) stops the run after that round, with its
    records committed, and propagates.
    """
    options = dict(options, measure=measure, strategy=strategy,
                   trials=trials)
    callback = None
    if progress is not None:
        def callback(state):
            progress(Progress(**state))
    report = _tessel.tune(text, json.dumps(options), str(db), callback,
                          source_name)
    return TuneResult(
        run_id=report["run_id"], measurer=report["measurer"],
        simulated=report["simulated"], strategy=report["strategy"],
        trials=report["trials"], elapsed_s=report["elapsed_s"],
        tasks=[TaskResult(
            workload_key=t["key"], description=t["description"],
            weight=t["weight"], flops=t["flops"], trials=t["trials"],
            best_latency_us=t["best_latency_us"],
            best_gflops=t["best_gflops"],
            default_latency_us=t["default_latency_us"],
            in_model=t.get("in_model", True))
            for t in report["tasks"]],
        report=report)
