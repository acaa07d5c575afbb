// REQUIRES: ptxas
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin resources-file=%t.json" | FileCheck %s --check-prefix=BIN
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: tessel-opt %s --tessel-to-cuda="format=fatbin" | FileCheck %s --check-prefix=FATBIN
// RUN: not tessel-opt %s --tessel-to-cuda="chip=sm_60" 2>&1 | FileCheck %s --check-prefix=SM60
// RUN: not tessel-opt %s --tessel-to-cuda="format=foo" 2>&1 | FileCheck %s --check-prefix=FOO
// RUN: not tessel-opt %s --tessel-to-cuda="cuda-path=/nonexistent" 2>&1 | FileCheck %s --check-prefix=NOPTXAS

// The host launches the kernel on 16 blocks of 128 threads.
// BIN-LABEL: llvm.func @matmul_shared
// BIN-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : index) : i64
// BIN-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : index) : i64
// BIN-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : index) : i64
// BIN: gpu.launch_func @matmul_shared_kernel::@matmul_shared_kernel blocks in (%[[C16]], %[[C1]], %[[C1]]) threads in (%[[C128]], %[[C1]], %[[C1]])
// BIN-NOT: linalg.
// BIN-NOT: gpu.launch {
// BIN: gpu.binary @matmul_shared_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {
// BIN-SAME: tessel.kernels = {matmul_shared_kernel = {ptx = {{.*}}, registers = {{[0-9]+}} : i64, shared_memory_bytes = 1536 : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64, stack_bytes = 0 : i64}}
// BIN-SAME: bin = "\7FELF
// BIN-NOT: gpu.module

// JSON: [
// JSON-NEXT:   {
// JSON-NEXT:     "chip": "sm_90",
// JSON-NEXT:     "kernel": "matmul_shared_kernel",
// JSON-NEXT:     "module": "matmul_shared_kernel",
// The static report of its PTX (PtxReport.h): the staging loop's barriers,
// its FMAs and shared loads.
// JSON-NEXT:     "ptx": {
// JSON-NEXT:       "bar_sync": {{[0-9]+}},
// JSON-NEXT:       "bar_sync_in_loops": {{[1-9][0-9]*}},
// JSON-NEXT:       "fma_f32": 32,
// JSON-NEXT:       "fma_f32_in_loops": 32,
// JSON:            "ld_shared_in_loops": {{[1-9][0-9]*}},
// JSON:          },
// JSON-NEXT:     "registers": {{[0-9]+}},
// JSON-NEXT:     "shared_memory_bytes": 1536,
// JSON-NEXT:     "spill_load_bytes": 0,
// JSON-NEXT:     "spill_store_bytes": 0,
// JSON-NEXT:     "stack_bytes": 0
// JSON-NEXT:   }
// JSON-NEXT: ]

// PTX text, no ptxas run: no resource table.
// ISA: gpu.binary @matmul_shared_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// ISA-NOT: tessel.kernels
// ISA-SAME: assembly = "
// ISA-SAME: .target sm_90
// ISA-SAME: .maxntid 128, 1, 1
// ISA-SAME: .shared .align {{[0-9]+}} .b8 alloca[1024]
// ISA-SAME: bar.sync

// SM80: gpu.binary @matmul_shared_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">
// SM80-SAME: tessel.kernels = {matmul_shared_kernel = {ptx = {{.*}}, registers =
// SM80-SAME: bin = "\7FELF

// The fatbinary magic is 0xBA55ED50.
// FATBIN: gpu.binary @matmul_shared_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// FATBIN-SAME: tessel.kernels = {matmul_shared_kernel = {ptx = {{.*}}, registers =
// FATBIN-SAME: }}}, "P\EDU\BA

// SM60: error: tessel-to-cuda: unsupported chip 'sm_60'; expected sm_70 or newer (e.g. sm_90)
// SM60-NOT: PLEASE submit a bug report
// FOO: error: tessel-to-cuda: unknown format 'foo'; expected isa, bin or fatbin
// FOO-NOT: PLEASE submit a bug report
// NOPTXAS: tessel-to-cuda.mlir:0:0: error: cubins need ptxas, which was not found at '/nonexistent/bin/ptxas'; install the CUDA toolkit and set CUDA_PATH (or cuda-path), or use format=isa to emit PTX only
// NOPTXAS-NOT: PLEASE submit a bug report
func.func @matmul_shared(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
