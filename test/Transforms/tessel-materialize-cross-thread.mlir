// RUN: tessel-opt %s -split-input-file --tessel-emit-transform-script | FileCheck %s --check-prefix=SCRIPT
// RUN: tessel-opt %s -split-input-file --tessel-materialize | FileCheck %s
// The script uses upstream ops and, for the fused init of a kernel with
// consumers, transform.tessel.init_from_empty (Tessel's plugin).
// RUN: tessel-opt %s -split-input-file --tessel-emit-transform-script | mlir-opt --load-dialect-plugin=%tessel_plugin -split-input-file > /dev/null

// Softmax's row max in BERT-base, its unit reduction dim kept: one block per
// row (12 * 128 = 1536), 32 threads per block, 4 serial steps per thread.
// The op is alone in its kernel: generalized and stripped of its unit loops,
// then split with thread t reducing elements t, t + 32, t + 64, t + 96.
// SCRIPT-LABEL: func.func @row_max_keepdims
// SCRIPT: %[[T:.*]], %[[BLOCK:.*]] = transform.structured.tile_using_forall %{{.*}}(mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// SCRIPT: transform.tune.knob<"op0.d3.threads"> = 32
// SCRIPT: %[[G:.*]] = transform.structured.generalize %[[T]]
// SCRIPT: transform.apply_patterns to %[[BLOCK]] {
// SCRIPT-NEXT: transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
// SCRIPT: %{{.*}}, %[[FILL:.*]], %[[PARTIAL:.*]], %[[COMBINE:.*]] = transform.structured.split_reduction %[[G]] {inner_parallel, split_factor = 32 : i64}
// SCRIPT: transform.structured.bufferize_to_allocation %[[FILL]] {{.*}}memory_space = #gpu.address_space<workgroup>
// SCRIPT: %[[PT:.*]], %[[PF:.*]] = transform.structured.tile_using_forall %[[PARTIAL]] tile_sizes [0, 1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: transform.structured.fuse_into_containing_op %[[FILL]] into %[[PF]]
// SCRIPT: transform.annotate %[[PT]] "tessel.anchor"
// SCRIPT: transform.annotate %[[COMBINE]] "tessel.anchor"
// SCRIPT: transform.bufferization.one_shot_bufferize
// SCRIPT: %[[BOTH:.*]] = transform.structured.match attributes {tessel.anchor = 0 : i64}
// SCRIPT: %[[SPLIT:.*]]:2 = transform.split_handle %[[BOTH]]
// SCRIPT: transform.structured.tile_using_for %[[SPLIT]]#0 tile_sizes [1, 0]
// SCRIPT: %[[C:.*]], %{{.*}} = transform.structured.tile_using_forall %[[SPLIT]]#1 num_threads [1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: transform.structured.tile_using_for %[[C]] tile_sizes [1]
// SCRIPT: transform.gpu.map_forall_to_blocks %{{.*}} generate_gpu_launch grid_dims = [1536, 1, 1]
// SCRIPT: transform.gpu.map_nested_forall_to_threads %{{.*}} block_dims = [32, 1, 1]

// CHECK-LABEL: func.func @row_max_keepdims
// CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<1xf32>
// CHECK-DAG: %[[C1536:.*]] = arith.constant 1536 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C1536]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C32]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK-NOT: memref.alloc
// CHECK: %[[ROW:.*]] = memref.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 32]
// CHECK: %[[PARTIALS:.*]] = memref.get_global @[[G:.*]] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// Thread t: column t of the 4x32 view of its row (coalesced), its partial
// in shared memory starting from -inf.
// CHECK: %[[COLUMN:.*]] = memref.subview %[[ROW]][0, %[[TID]]] [4, 1] [1, 1]
// CHECK: %[[MINE:.*]] = memref.subview %[[PARTIALS]][%[[TID]]] [1] [1]
// CHECK: vector.store %[[NINF]], %[[MINE]]
// CHECK-COUNT-4: arith.maximumf
// CHECK: gpu.barrier
// One thread combines the 32 partials into the row's result.
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[TID]], %[[C1]] : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C32]] step %[[C1]] {
// CHECK: memref.subview %[[PARTIALS]][%[[I]]] [1] [1]
// CHECK: arith.maximumf
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: } {tessel.accumulators = 0 : i64, tessel.kernel = 0 : i64}
// CHECK: memref.global "private" @[[G]] : memref<32xf32, #gpu.address_space<workgroup>>
func.func @row_max_keepdims(%x: tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32> {
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

// -----

// A layer-norm mean: the row sum over 128 threads (6 steps each), then the
// fused division. 128 threads are more than a warp: 32 threads first combine
// 4 partials each (every 32nd), then one thread the 32 results. The row's
// sum lives in shared memory; the combining thread also runs the fill and
// the consumer, which alone writes global memory.
// SCRIPT-LABEL: func.func @row_mean_fused
// SCRIPT: transform.structured.fuse_into_containing_op
// SCRIPT: transform.structured.fuse_into_containing_op
// SCRIPT: transform.structured.bufferize_to_allocation {{.*}}memory_space = #gpu.address_space<workgroup>
// SCRIPT-NOT: generalize
// SCRIPT: %{{.*}}, %{{.*}}, %[[P1:.*]], %[[C1:.*]] = transform.structured.split_reduction %{{.*}} {inner_parallel, insert_split_dimension = 1 : i64, split_factor = 128 : i64}
// SCRIPT: tile_using_forall %[[P1]] tile_sizes [0, 0, 1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: %{{.*}}, %{{.*}}, %[[P2:.*]], %[[C2:.*]] = transform.structured.split_reduction %[[C1]] {inner_parallel, insert_split_dimension = 1 : i64, split_factor = 32 : i64}
// SCRIPT: tile_using_forall %[[P2]] tile_sizes [0, 0, 1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: transform.annotate %[[C2]] "tessel.anchor"
// SCRIPT: %[[H:.*]]:3 = transform.split_handle
// SCRIPT: transform.structured.tile_using_for %[[H]]#0 tile_sizes [0, 1, 0]
// SCRIPT: transform.structured.tile_using_for %[[H]]#1 tile_sizes [0, 1, 0]
// SCRIPT: %[[LAST:.*]], %{{.*}} = transform.structured.tile_using_forall %[[H]]#2 num_threads [1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: transform.structured.tile_using_for %[[LAST]] tile_sizes [0, 1]
// SCRIPT: num_threads [1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: num_threads [1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: block_dims = [128, 1, 1]

// CHECK-LABEL: func.func @row_mean_fused
// CHECK-SAME: (%[[X:.*]]: memref<128x768xf32>)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<128xf32>
// CHECK: gpu.launch
// CHECK-NOT: memref.alloc
// CHECK: %[[SUM:.*]] = memref.get_global @[[GS:.*]] : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[TID]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: vector.store {{.*}} : memref<1xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: %[[PARTIALS:.*]] = memref.get_global @[[GP:.*]] : memref<1x128xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C6]]
// CHECK: arith.addf
// CHECK: gpu.barrier
// Threads 0..31 each add every 32nd partial (4 of them).
// CHECK: memref.expand_shape %[[PARTIALS]] {{\[\[}}0], [1, 2]] output_shape [1, 4, 32]
// CHECK: memref.get_global @[[GG:.*]] : memref<1x32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[GROUP:.*]] = arith.cmpi ult, %[[TID]], %[[C32]] : index
// CHECK: scf.if %[[GROUP]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C4]]
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: scf.if %[[FIRST]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C32]]
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: memref.subview %[[OUT]]
// CHECK: scf.if %[[FIRST]] {
// CHECK: arith.divf
// CHECK: vector.store
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.terminator
// CHECK-DAG: memref.global "private" @[[GS]] : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[GP]] : memref<1x128xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[GG]] : memref<1x32xf32, #gpu.address_space<workgroup>>
func.func @row_mean_fused(%x: tensor<128x768xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      {tessel.sketch = #tessel.sketch<cross_thread_reduction, fused_consumers = 1>, tessel.config = #tessel.config<tiles = [[128], [6, 128]], unroll = 0>}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %e2 = tensor.empty() : tensor<128xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%0 : tensor<128xf32>) outs(%e2 : tensor<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 7.680000e+02 : f32
    %s = arith.divf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// -----

// One thread per block: no split, the thread reduces its row serially.
// SCRIPT-LABEL: func.func @single_thread
// SCRIPT: transform.tune.knob<"op0.d1.threads"> = 1
// SCRIPT-NOT: split_reduction
// SCRIPT: num_threads [1](mapping = [#gpu.thread<linear_dim_0>])
// SCRIPT: transform.structured.tile_using_for %{{.*}} tile_sizes [0, 1]
// SCRIPT: block_dims = [1, 1, 1]

// CHECK-LABEL: func.func @single_thread
// CHECK: gpu.launch
// CHECK-NOT: workgroup
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: gpu.terminator
func.func @single_thread(%x: tensor<64x48xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      {tessel.sketch = #tessel.sketch<cross_thread_reduction>, tessel.config = #tessel.config<tiles = [[64], [48, 1]], unroll = 0>}
      ins(%x : tensor<64x48xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
