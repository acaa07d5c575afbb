// tessel-tune --export-spec writes the tuned schedules of a model as a
// transform library; stock mlir-opt with Tessel's plugin applies it, and the
// result compiles to the same kernels as --tessel-apply-tuned gives.
//
// Tune the model's two workloads (a matmul with a fused ReLU, and a matmul
// of other shapes) on the analytic simulator, then export the spec from the records.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random --trials=8 --measures-per-round=4 --db=%t.db --seed=1 --quiet > /dev/null
// RUN: tessel-tune %s --db=%t.db --export-spec=%t.spec.mlir 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: tessel-tune: tuning spec for 2 of 2 workloads in {{.*}}.spec.mlir
// RUN: FileCheck %s --check-prefix=SPEC < %t.spec.mlir
//
// Given with tuning flags, --export-spec writes the spec after the run, from
// the database the run added to: the same as exporting from it afterwards.
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random --trials=8 --measures-per-round=4 --db=%t.db --seed=1 --resume --quiet --export-spec=%t.spec2.mlir > /dev/null
// RUN: tessel-tune %s --db=%t.db --export-spec=%t.spec3.mlir --quiet
// RUN: diff %t.spec2.mlir %t.spec3.mlir
//
// SPEC: module attributes {transform.with_named_sequence} {
// SPEC: transform.named_sequence @match_task0(%[[OP:[a-z0-9]+]]: !transform.any_op {transform.readonly}) -> !transform.any_op {
// SPEC-NEXT: transform.match.operation_name %[[OP]] ["linalg.matmul"] : !transform.any_op
// SPEC-NEXT: transform.tessel.match.workload %[[OP]] "linalg.matmul ins(tensor<32x48xf32>, tensor<48x64xf32>) outs(fill(0.000000e+00 : f32):tensor<32x64xf32>) {{.*}} | fused linalg.generic {{.*}}" : !transform.any_op
// SPEC-NEXT: transform.yield %[[OP]] : !transform.any_op
// SPEC: transform.named_sequence @annotate_task0(%[[OP:[a-z0-9]+]]: !transform.any_op {transform.readonly}) {
// SPEC-NEXT: %[[SKETCH:[0-9]+]] = transform.param.constant #tessel.sketch<{{.*}}> -> !transform.any_param
// SPEC-NEXT: %[[CONFIG:[0-9]+]] = transform.param.constant #tessel.config<{{.*}}> -> !transform.any_param
// SPEC-NEXT: transform.annotate %[[OP]] "tessel.sketch" = %[[SKETCH]] : !transform.any_op, !transform.any_param
// SPEC-NEXT: transform.annotate %[[OP]] "tessel.config" = %[[CONFIG]] : !transform.any_op, !transform.any_param
// SPEC: transform.named_sequence @match_task1(
// SPEC: transform.tessel.match.workload %{{.*}} "linalg.matmul ins(tensor<32x64xf32>, tensor<64x16xf32>) outs(fill(0.000000e+00 : f32):tensor<32x16xf32>)
// SPEC-NOT: fused
// SPEC: transform.named_sequence @annotate_task1(
// SPEC: transform.named_sequence @__transform_main(%[[ROOT:[a-z0-9]+]]: !transform.any_op {transform.consumed}) {
// SPEC-NEXT: transform.foreach_match in %[[ROOT]]
// SPEC-NEXT: @match_task0 -> @annotate_task0
// SPEC-NEXT: @match_task1 -> @annotate_task1 : (!transform.any_op) -> !transform.any_op
//
// Stock mlir-opt applies the spec: the same annotated module as
// --tessel-apply-tuned, and the same kernels once compiled.
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin %s \
// RUN:   --transform-preload-library=transform-library-paths=%t.spec.mlir \
// RUN:   --transform-interpreter > %t.spec-annotated.mlir
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" 2>/dev/null > %t.db-annotated.mlir
// RUN: diff %t.spec-annotated.mlir %t.db-annotated.mlir
// tessel-opt applies it the same way.
// RUN: tessel-opt %s --transform-preload-library=transform-library-paths=%t.spec.mlir \
// RUN:   --transform-interpreter | diff - %t.spec-annotated.mlir
// RUN: FileCheck %s --check-prefix=ANNOTATED < %t.spec-annotated.mlir
// ANNOTATED-COUNT-2: linalg.matmul {tessel.config = #tessel.config<{{.*}}>, tessel.sketch = #tessel.sketch<
// RUN: tessel-opt %t.spec-annotated.mlir --pass-pipeline='builtin.module(tessel-to-cuda{chip=sm_90 format=isa})' \
// RUN:   | sed -E 's/ToISATimeInMs = [0-9]+/ToISATimeInMs = T/' > %t.spec.isa.mlir
// RUN: tessel-opt %t.db-annotated.mlir --pass-pipeline='builtin.module(tessel-to-cuda{chip=sm_90 format=isa})' \
// RUN:   | sed -E 's/ToISATimeInMs = [0-9]+/ToISATimeInMs = T/' > %t.db.isa.mlir
// RUN: diff %t.spec.isa.mlir %t.db.isa.mlir
// The tuned schedules matter: the default ones give other kernels.
// RUN: tessel-opt %s --pass-pipeline='builtin.module(tessel-to-cuda{chip=sm_90 format=isa})' \
// RUN:   | sed -E 's/ToISATimeInMs = [0-9]+/ToISATimeInMs = T/' > %t.default.isa.mlir
// RUN: not diff -q %t.spec.isa.mlir %t.default.isa.mlir
//
// A matmul of other shapes is another workload: the spec leaves it alone.
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin %S/Inputs/other-shapes.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%t.spec.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=OTHER
// OTHER: linalg.matmul ins(
// OTHER-NOT: tessel.sketch
//
// Errors: a model none of whose workloads has a record, a database that
// cannot be read, a model without tunable ops. No spec file is left behind.
// RUN: not tessel-tune %S/Inputs/other-shapes.mlir --db=%t.db --export-spec=%t.none.mlir 2>&1 | FileCheck %s --check-prefix=NORECORD
// NORECORD: tessel-tune: --export-spec from '{{.*}}.db': none of the model's 1 workloads has a tuning record
// RUN: not test -e %t.none.mlir
// RUN: not tessel-tune %s --db=%t.missing.db --export-spec=%t.none.mlir 2>&1 | FileCheck %s --check-prefix=NODB
// NODB: tessel-tune: {{.*}}missing.db: records database does not exist
// RUN: not tessel-tune %S/Inputs/elementwise.mlir --db=%t.db --export-spec=%t.none.mlir 2>&1 | FileCheck %s --check-prefix=NOTUNABLE
// NOTUNABLE: tessel-tune: --export-spec from '{{.*}}.db': the model has no tunable op (a linalg op on static tensors with a parallel and a reduction loop)
// RUN: not tessel-tune --rerun=1 --db=%t.db --export-spec=%t.none.mlir 2>&1 | FileCheck %s --check-prefix=NOMODEL
// NOMODEL: tessel-tune: --export-spec needs the model file; give it instead of --rerun

func.func @forward(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>, %c: tensor<64x16xf32>, %d: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x16xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %1 = linalg.matmul ins(%d, %c : tensor<32x64xf32>, tensor<64x16xf32>) outs(%init2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %relu, %1 : tensor<32x64xf32>, tensor<32x16xf32>
}
