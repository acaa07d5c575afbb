// REQUIRES: ptxas
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA

// A cross-thread row max (softmax in BERT-base) down to a cubin: 1536 blocks
// of 32 threads, the 32 partial results in 128 bytes of shared memory and no
// temporary in global memory. (The fill of the result is a kernel of its
// own.)
// BIN-LABEL: llvm.func @row_max
// BIN-DAG: %[[C1536:.*]] = llvm.mlir.constant(1536 : index) : i64
// BIN-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
// BIN-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : index) : i64
// BIN: gpu.launch_func @row_max_kernel::@row_max_kernel blocks in
// BIN: gpu.launch_func @row_max_kernel_0::@row_max_kernel blocks in (%[[C1536]], %[[C1]], %[[C1]]) threads in (%[[C32]], %[[C1]], %[[C1]])
// BIN-NOT: gpu.launch_func
// BIN: gpu.binary @row_max_kernel_0 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {
// BIN-SAME: tessel.kernels = {row_max_kernel = {ptx = {{.*}}, registers = {{[0-9]+}} : i64, shared_memory_bytes = 128 : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64, stack_bytes = 0 : i64}}
// BIN-SAME: bin = "\7FELF

// Thread t loads elements t, t + 32, t + 64 and t + 96 of its row (128-byte
// steps: coalesced), keeps their max in a register and stores it to shared
// memory once; after the one barrier, one thread combines the partials.
// ISA: gpu.binary @row_max_kernel_0
// ISA-SAME: .maxntid 32, 1, 1
// ISA-SAME: .shared .align 16 .b8 alloca[128]
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[ADDR:[0-9]+]]];
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[ADDR]]+128];
// ISA-SAME: max.NaN.f32
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[ADDR]]+256];
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[ADDR]]+384];
// ISA-SAME: st.shared.b32
// ISA-SAME: bar.sync
// ISA-SAME: ld.shared
// ISA-SAME: max.NaN.f32
// ISA-SAME: st.global.b32
// No barrier at the end of the kernel (upstream's mapping left one there).
// ISA-NOT: bar.sync
func.func @row_max(%x: tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x12x128x1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, k) -> (b, h, i, k)>, affine_map<(b, h, i, k) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      {tessel.sketch = #tessel.sketch<cross_thread_reduction>, tessel.config = #tessel.config<tiles = [[1], [12], [128], [4, 32]], unroll = 16>}
      ins(%x : tensor<1x12x128x128xf32>) outs(%init : tensor<1x12x128x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x12x128x1xf32>
  return %0 : tensor<1x12x128x1xf32>
}
