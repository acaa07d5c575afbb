// Debian's own mlir-opt-22 loads libTesselPlugin.so: it parses #tessel
// attributes and runs Tessel's passes and pipelines, with the same output as
// tessel-opt. Passes of a plugin are named in --pass-pipeline (a plugin is
// loaded after the tool has read its pass flags). The compile-time property
// of the gpu.object differs from run to run and is masked.
//
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin %s > %t.rt.plugin.mlir
// RUN: tessel-opt %s > %t.rt.tessel.mlir
// RUN: diff %t.rt.plugin.mlir %t.rt.tessel.mlir
// RUN: FileCheck %s --check-prefix=ROUNDTRIP < %t.rt.plugin.mlir
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin --load-pass-plugin=%tessel_plugin %s \
// RUN:   --pass-pipeline='builtin.module(tessel-to-cuda{chip=sm_90 format=isa})' \
// RUN:   | sed -E 's/ToISATimeInMs = [0-9]+/ToISATimeInMs = T/' > %t.plugin.mlir
// RUN: tessel-opt %s --pass-pipeline='builtin.module(tessel-to-cuda{chip=sm_90 format=isa})' \
// RUN:   | sed -E 's/ToISATimeInMs = [0-9]+/ToISATimeInMs = T/' > %t.tessel.mlir
// RUN: diff %t.plugin.mlir %t.tessel.mlir
// RUN: FileCheck %s --check-prefix=ISA < %t.plugin.mlir
//
// Each pass by itself, here the materialization of the schedule.
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin --load-pass-plugin=%tessel_plugin %s \
// RUN:   --pass-pipeline='builtin.module(tessel-materialize)' > %t.mat.plugin.mlir
// RUN: tessel-opt %s --tessel-materialize > %t.mat.tessel.mlir
// RUN: diff %t.mat.plugin.mlir %t.mat.tessel.mlir
//
// Bad input through the plugin: a located diagnostic, no crash.
// RUN: not mlir-opt --load-dialect-plugin=%tessel_plugin %S/Inputs/bad-config.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// RUN: not mlir-opt --load-dialect-plugin=%tessel_plugin --load-pass-plugin=%tessel_plugin %s \
// RUN:   --pass-pipeline='builtin.module(tessel-to-cuda{chip=sm_60})' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mlir-opt --load-dialect-plugin=%tessel_plugin %S/../CAPI/Inputs/malformed.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SYNTAX
// RUN: not mlir-opt --load-dialect-plugin=%tessel_plugin --load-pass-plugin=%tessel_plugin %s \
// RUN:   --pass-pipeline='builtin.module(tessel-apply-tuned{db=%t.missing/records.db})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODB

// ROUNDTRIP: linalg.matmul {tessel.config = #tessel.config<tiles = {{\[\[}}4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>}

// ISA: gpu.launch_func @matmul_shared_kernel::@matmul_shared_kernel
// ISA: gpu.binary @matmul_shared_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// ISA-SAME: .maxntid 128, 1, 1

// BAD: bad-config.mlir:3:8: error: tile sizes of loop 0 multiply to 384, not to the loop extent 128
// BAD-NOT: PLEASE submit a bug report
// CHIP: error: tessel-to-cuda: unsupported chip 'sm_60'; expected sm_70 or newer (e.g. sm_90)
// CHIP-NOT: PLEASE submit a bug report
// SYNTAX: malformed.mlir:2:54: error: expected ')'
// NODB: stock-mlir-opt.mlir:0:0: error: {{.*}}.missing/records.db: records database does not exist
// NODB-NOT: PLEASE submit a bug report

func.func @matmul_shared(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
