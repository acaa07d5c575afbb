// RUN: tessel-opt %s -split-input-file --tessel-materialize | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-materialize=stop-before-gpu-mapping=1 | FileCheck %s --check-prefix=FORALL

// Blocks: level-0 trip counts of the space loops, 4 * 4 = 16.
// Threads: thread-level trip counts, 8 * 16 = 128.
// Shared footprints: A 32x8 f32 (1024 bytes), B 8x16 f32 (512 bytes).
// CHECK-LABEL: func @matmul_shared
// CHECK-SAME: (%[[A:.*]]: memref<128x256xf32>, %[[B:.*]]: memref<256x64xf32>, %[[C:.*]]: memref<128x64xf32>)
// CHECK-NOT: linalg.
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK: %[[SA:.*]] = memref.get_global @[[GA:.*]] : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.get_global @[[GB:.*]] : memref<512xi8, #gpu.address_space<workgroup>>
// CHECK: %[[VA:.*]] = memref.view %[[SA]]{{.*}} to memref<32x8xf32, #gpu.address_space<workgroup>>
// CHECK: %[[VB:.*]] = memref.view %[[SB]]{{.*}} to memref<8x16xf32, #gpu.address_space<workgroup>>
// The accumulators are read once, carried by the staging loop in registers
// and written back once.
// CHECK: vector.load %[[C]]
// CHECK: scf.for {{.*}} iter_args
// Cooperative copy of the A tile, then of the B tile, each followed by a barrier.
// CHECK: vector.load %[[A]]
// CHECK: vector.store %{{.*}}, %[[VA]]
// CHECK: gpu.barrier
// CHECK: vector.load %[[B]]
// CHECK: vector.store %{{.*}}, %[[VB]]
// CHECK: gpu.barrier
// CHECK-NOT: %[[C]]
// CHECK: vector.fma
// CHECK-NOT: %[[C]]
// CHECK: scf.yield
// CHECK: vector.store %{{.*}}, %[[C]]
// CHECK: gpu.terminator
// CHECK-NEXT: } {tessel.accumulators = 1 : i64, tessel.kernel = 0 : i64}
// CHECK-NOT: linalg.
// CHECK: return %[[C]]
// CHECK-DAG: memref.global "private" @[[GA]] : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @[[GB]] : memref<512xi8, #gpu.address_space<workgroup>>

// FORALL-LABEL: func @matmul_shared
// FORALL-NOT: gpu.launch
// FORALL: scf.forall (%{{.*}}, %{{.*}}) in (4, 4) {
// FORALL: memref.alloca() : memref<1024xi8, #gpu.address_space<workgroup>>
// FORALL: memref.alloca() : memref<512xi8, #gpu.address_space<workgroup>>
// FORALL: scf.forall (%{{.*}}, %{{.*}}) in (16, 8) {
// FORALL: } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// FORALL: scf.forall (%{{.*}}, %{{.*}}) in (8, 16) {
// FORALL: } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// FORALL: } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>], tessel.kernel = 0 : i64}
// FORALL-NOT: gpu.launch
// FORALL: return
func.func @matmul_shared(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// Without shared operands: no workgroup memory. (The thread mapping still
// syncs after each virtual-thread iteration; upstream eliminate_barriers
// cannot prove the global accumulator accesses disjoint.)
// Blocks 4 * 4 = 16, threads 8 * 16 = 128.
// CHECK-LABEL: func @matmul_no_shared
// CHECK-NOT: linalg.
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK-NOT: workgroup
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// CHECK-NOT: memref.global
// CHECK: return

// FORALL-LABEL: func @matmul_no_shared
// FORALL-NOT: workgroup
// FORALL: scf.forall (%{{.*}}, %{{.*}}) in (4, 4) {
// FORALL: } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>], tessel.kernel = 0 : i64}
func.func @matmul_no_shared(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 16>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// matmul + bias + relu: the fill of the init, the matmul and the fused
// consumer form ONE kernel. Blocks 1 * 2 = 2, threads 16 * 16 = 256. The
// accumulator (the 64x32 block tile) lives in shared memory.
// CHECK-LABEL: func @matmul_bias_relu
// CHECK-NOT: linalg.
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK: gpu.barrier
// CHECK: vector.fma
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
// CHECK: return
// CHECK-DAG: memref.global "private" @{{.*}} : memref<64x32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @{{.*}} : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @{{.*}} : memref<512xi8, #gpu.address_space<workgroup>>

// FORALL-LABEL: func @matmul_bias_relu
// FORALL: scf.forall (%{{.*}}) in (2) {
// FORALL: arith.maximumf
// FORALL: } {mapping = [#gpu.block<linear_dim_0>], tessel.kernel = {{[0-9]+}} : i64}
// FORALL-NOT: scf.forall
// FORALL: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], fused_consumers = 1>,
                       tessel.config = #tessel.config<tiles = [[1, 1, 16, 4, 1], [2, 2, 16, 1, 1], [64, 2, 2]]>}
    ins(%a, %b : tensor<64x256xf32>, tensor<256x64xf32>) outs(%fill : tensor<64x64xf32>) -> tensor<64x64xf32>
  %out = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// An elementwise op, two_level_injective ("SS": blocks, threads):
// blocks = 128 * 3 = 384, threads = 1 * 256 = 256.
// CHECK-LABEL: func @injective
// CHECK-DAG: %[[C384:.*]] = arith.constant 384 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C384]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK-NOT: gpu.barrier
// CHECK: arith.maximumf
// CHECK-NOT: linalg.
// CHECK: return

// FORALL-LABEL: func @injective
// FORALL: scf.forall (%{{.*}}, %{{.*}}) in (128, 3) {
// FORALL: scf.forall (%{{.*}}) in (256) {
// FORALL: } {mapping = [#gpu.thread<linear_dim_0>]}
// FORALL: } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>], tessel.kernel = 0 : i64}
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @injective(%x: tensor<128x768xf32>, %init: tensor<128x768xf32>) -> tensor<128x768xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128x768xf32>)
      attrs = {tessel.sketch = #tessel.sketch<two_level_injective>,
               tessel.config = #tessel.config<tiles = [[128, 1], [3, 256]]>} {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %z : f32
    linalg.yield %r : f32
  } -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

// -----

// Boundary blocks: 8191 = 31 * 256 + 255 is covered by 32 blocks of 256
// threads; the last block's tile is 255 wide, split over its 256 threads by
// count (thread 255 gets an empty tile).
// CHECK-LABEL: func @boundary_blocks
// CHECK-DAG: %[[C1184:.*]] = arith.constant 1184 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C1184]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK: affine.min
// CHECK: memref.subview %{{.*}} : memref<37x8191xf32> to memref<1x?xf32

// FORALL-LABEL: func @boundary_blocks
// FORALL: scf.forall (%{{.*}}, %[[B:.*]]) in (37, 32) {
// FORALL: %[[W:.*]] = affine.min #{{.*}}(%[[B]])
// FORALL: scf.forall (%{{.*}}) in (256) {
// FORALL: } {mapping = [#gpu.thread<linear_dim_0>]}
#bmap = affine_map<(d0, d1) -> (d0, d1)>
func.func @boundary_blocks(%x: tensor<37x8191xf32>, %init: tensor<37x8191xf32>) -> tensor<37x8191xf32> {
  %0 = linalg.generic {indexing_maps = [#bmap, #bmap], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<37x8191xf32>) outs(%init : tensor<37x8191xf32>)
      attrs = {tessel.sketch = #tessel.sketch<two_level_injective>,
               tessel.config = #tessel.config<tiles = [[37, 1], [32, 256]]>} {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<37x8191xf32>
  return %0 : tensor<37x8191xf32>
}
