// RUN: tessel-opt %s -split-input-file --tessel-materialize -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-materialize=record-facts=1 -verify-diagnostics | FileCheck %s --check-prefix=FACTS

// Strict-inlinable producers (`inlined` in the sketch) are computed by the
// cooperative load of the consumer's shared tile: no kernel and no global
// buffer of their own.

// The pad becomes a gather from the unpadded source into the shared tile of
// each stage (1x2x8x16: block tile h 8, w 16, stage tile c 2, kh 1, kw 1);
// out-of-bounds elements take the padding value. One kernel: the
// convolution fills its own accumulators.
// CHECK-LABEL: func @conv_pad
// CHECK-SAME: (%[[X:.*]]: memref<1x8x16x16xf32>, %[[W:.*]]: memref<16x8x3x3xf32>)
// CHECK-DAG: %[[PAD:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NOT: memref<1x8x18x18xf32>
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C4:.*]], %{{.*}}, %{{.*}}) threads
// The convolution's innermost tile reads its input window through a view
// of the shared tile (WindowAccesses.h): it is vectorized and its eight
// accumulators are carried in registers through the staging loops.
// CHECK: %[[TILE:.*]] = memref.get_global @[[G:.*]] : memref<1x2x8x16xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1xf32>, vector<1xf32>, vector<1xf32>, vector<1xf32>, vector<1xf32>, vector<1xf32>, vector<1xf32>, vector<1xf32>)
// CHECK: %[[V:.*]] = memref.load %[[X]]
// CHECK: arith.select %{{.*}}, %[[PAD]], %[[V]] : f32
// CHECK: gpu.barrier
// CHECK: vector.load %[[TILE]][{{.*}}] : memref<1x2x8x16xf32, #gpu.address_space<workgroup>>, vector<1xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: } {tessel.accumulators = 1 : i64, tessel.kernel = 2 : i64}
// CHECK-NOT: gpu.launch
// CHECK: return
// CHECK: memref.global "private" @[[G]] : memref<1x2x8x16xf32, #gpu.address_space<workgroup>>

// Work of the pad: none; reads: the unpadded source (8 KiB) and the filter
// (4.5 KiB).
// FACTS-LABEL: func @conv_pad
// FACTS-NOT: op = "fill"
// FACTS: tessel.facts = {{{.*}}flops = 5.898240e+05 : f64, global_read = 12800 : i64{{.*}}op = "conv_2d_nchw_fchw"
func.func @conv_pad(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32> {
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    %v = arith.constant 0.25 : f32
    tensor.yield %v : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>,
     tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0], register_accumulator, inlined = [0]>,
     tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [2, 2, 4, 1, 1], [2, 1, 8, 1, 1], [1, 1, 4, 4, 1], [4, 2, 1], [3, 1, 1], [3, 1, 1]], unroll = 64, vector = [1]>}
     ins(%padded, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%f : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %c : tensor<1x16x16x16xf32>
}

// -----

// A transpose feeding B: each stage's 16x16 tile of B is read transposed
// from %bt (two elements per thread: vector = 2) into shared memory, A is
// promoted and copied as usual. Without inlining the transpose would be a
// second kernel writing a 32x64 global buffer.
// FACTS-LABEL: func @matmul_transposed_b
// FACTS-NOT: op = "fill"
// FACTS: tessel.facts = {{{.*}}flops = 2.621440e+05 : f64, global_read = 16384 : i64{{.*}}op = "matmul"
// CHECK-LABEL: func @matmul_transposed_b
// CHECK-SAME: (%[[A:.*]]: memref<64x32xf32>, %[[BT:.*]]: memref<64x32xf32>)
// CHECK-NOT: memref<32x64xf32>
// CHECK: gpu.launch
// CHECK: %[[SB:.*]] = memref.get_global @[[GB:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SA:.*]] = memref.get_global @[[GA:.*]] : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: vector.load %[[BT]]
// CHECK: vector.load %[[BT]]
// CHECK: vector.store %{{.*}}, %[[SB]]{{.*}} vector<2xf32>
// CHECK: gpu.barrier
// CHECK: vector.load %[[A]]
// CHECK: gpu.barrier
// CHECK: } {tessel.accumulators = 1 : i64, tessel.kernel = 2 : i64}
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @matmul_transposed_b(%a: tensor<64x32xf32>, %bt: tensor<64x32xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<32x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%bt : tensor<64x32xf32>) outs(%te : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator, inlined = [1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 1, 1], [4, 1, 16, 1, 1], [2, 4, 4]], unroll = 64, vector = [1, 2]>}
    ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

func.func @not_inlinable(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{sketch inlines the producer of operand 1, which is not strict-inlinable: it must be a single-use tensor.pad with static padding and a constant padding value, or a single-use injective linalg op with static shapes, an identity init map it does not read and projected-permutation input maps}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator, inlined = [1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 1, 1], [4, 1, 16, 1, 1], [2, 4, 4]], unroll = 64, vector = [1, 2]>}
    ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
