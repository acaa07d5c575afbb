// REQUIRES: ptxas
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA

// A row epilogue: softmax's exp-sum (a cross-thread reduction, BERT-base's
// 1536 rows of 128) with the normalization of its row fused: one kernel of
// 1536 blocks of 32 threads; the row sum stays in shared memory, and no
// temporary reaches global memory. Shared memory: 128 bytes of partial sums
// and the 4-byte row sum, each buffer 16-byte aligned (144 bytes).
// BIN-LABEL: llvm.func @softmax_sum_normalize
// BIN-DAG: %[[C1536:.*]] = llvm.mlir.constant(1536 : index) : i64
// BIN-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
// BIN-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : index) : i64
// BIN: gpu.launch_func @softmax_sum_normalize_kernel::@softmax_sum_normalize_kernel blocks in (%[[C1536]], %[[C1]], %[[C1]]) threads in (%[[C32]], %[[C1]], %[[C1]])
// BIN-NOT: gpu.launch_func
// BIN: gpu.binary @softmax_sum_normalize_kernel
// BIN-SAME: tessel.kernels = {softmax_sum_normalize_kernel = {ptx = {{.*}}, registers = {{[0-9]+}} : i64, shared_memory_bytes = 144 : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64, stack_bytes = 0 : i64}}

// Thread t sums exp(x - max) over elements t, t + 32, t + 64, t + 96; one
// thread combines the 32 partials into the shared row sum; after the
// barrier every thread normalizes the same elements it read (128-byte
// steps: coalesced stores).
// ISA: gpu.binary @softmax_sum_normalize_kernel
// ISA-SAME: .maxntid 32, 1, 1
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[X:[0-9]+]]];
// ISA-SAME: ex2.approx
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[X]]+128];
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[X]]+384];
// ISA-SAME: st.shared.b32
// ISA-SAME: bar.sync
// ISA-SAME: ld.shared.v4.b32
// ISA-SAME: bar.sync
// ISA-SAME: ld.shared.b32 \09%r[[SUM:[0-9]+]], [alloca];
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[X]]];
// ISA-SAME: div.rn.f32 \09%r{{[0-9]+}}, %r{{[0-9]+}}, %r[[SUM]];
// ISA-SAME: st.global.b32
// ISA-SAME: ld.global.b32 \09%r{{[0-9]+}}, [%rd[[X]]+128];
// ISA-SAME: div.rn.f32 \09%r{{[0-9]+}}, %r{{[0-9]+}}, %r[[SUM]];
func.func @softmax_sum_normalize(%x: tensor<12x128x128xf32>, %m: tensor<12x128xf32>) -> tensor<12x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128xf32>) -> tensor<12x128xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, k) -> (h, i, k)>, affine_map<(h, i, k) -> (h, i)>, affine_map<(h, i, k) -> (h, i)>], iterator_types = ["parallel", "parallel", "reduction"]}
      {tessel.sketch = #tessel.sketch<cross_thread_reduction, fused_consumers = 1>, tessel.config = #tessel.config<tiles = [[12], [128], [4, 32]], unroll = 16>}
      ins(%x, %m : tensor<12x128x128xf32>, tensor<12x128xf32>) outs(%init : tensor<12x128xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %p = math.exp %d : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<12x128xf32>
  %e2 = tensor.empty() : tensor<12x128x128xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(h, i, k) -> (h, i, k)>, affine_map<(h, i, k) -> (h, i)>, affine_map<(h, i, k) -> (h, i)>, affine_map<(h, i, k) -> (h, i, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m, %s : tensor<12x128x128xf32>, tensor<12x128xf32>, tensor<12x128xf32>) outs(%e2 : tensor<12x128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %t: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %p = math.exp %d : f32
    %q = arith.divf %p, %t : f32
    linalg.yield %q : f32
  } -> tensor<12x128x128xf32>
  return %y : tensor<12x128x128xf32>
}
