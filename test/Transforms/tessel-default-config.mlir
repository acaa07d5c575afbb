// RUN: tessel-opt %s -split-input-file --tessel-default-config -verify-diagnostics | FileCheck %s

// Contractions get multi_level_tiling with both inputs staged in shared memory
// and the accumulator in registers: 16 blocks of 256 threads, the staging
// double-buffered (32 steps of K = 8). A K staged in one step is not.
// CHECK-LABEL: func @matmul
// CHECK: linalg.matmul {tessel.config = #tessel.config<tiles = {{\[}}[4, 1, 16, 4, 1], [4, 1, 16, 4, 1], [32, 8, 1]], unroll = 16, vector = [2, 2], stages = 2>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>}
// CHECK: linalg.matmul {tessel.config = #tessel.config<tiles = {{\[}}[4, 1, 16, 4, 1], [4, 1, 16, 4, 1], [1, 8, 1]], unroll = 16, vector = [2, 2]>, tessel.sketch
func.func @matmul(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>,
                  %a8: tensor<256x8xf32>, %b8: tensor<8x256xf32>) -> (tensor<256x256xf32>, tensor<256x256xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.matmul ins(%a8, %b8 : tensor<256x8xf32>, tensor<8x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0, %1 : tensor<256x256xf32>, tensor<256x256xf32>
}

// -----

// The 256 threads do not divide the staged 3x34x34 input tile: it is still
// staged, by a predicated cooperative load, with the width that keeps the
// most lanes busy (1: 17 rounds of 204 of 256 threads; 2 would keep 102 busy).
// A sliding window is not double-buffered by default (a 3x3 conv measured
// 0.67x as fast with it on the H100).
// CHECK-LABEL: func @conv
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: tessel.config = #tessel.config<tiles = {{\[}}[1, 1, 1, 1, 1], [16, 1, 1, 1, 1], [1, 1, 16, 2, 1], [1, 1, 16, 2, 1], [1, 3, 1], [1, 3, 1], [1, 3, 1]], unroll = 16, vector = [1, 1]>
// CHECK-SAME: tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>
func.func @conv(%i: tensor<1x3x34x34xf32>, %f: tensor<16x3x3x3xf32>, %o: tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : tensor<1x3x34x34xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  return %0 : tensor<1x16x32x32xf32>
}

// -----

// A convolution whose whole-image block cannot stage its tiles in 48 KiB
// (ResNet-50's 3x3 64-channel layer: 8 channels x 58 x 58 input floats)
// gets smaller staged blocks after the fastest schedule the H100 measured
// for it: 8 channels x 8 rows x 8 columns a block, 4 x 4 x 8 threads with
// 2 x 2 register tiles, channels staged 8 at a time, the 3 x 3 window whole
// in the thread's innermost tile. Unstaged, such defaults measured
// 0.04-0.15x cuDNN. The 128-channel layer at 28 x 28, whose tiles fit
// (1.83x cuDNN measured), keeps the rule above.
// CHECK-LABEL: func @conv_window
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: tessel.config = #tessel.config<tiles = {{\[}}[1, 1, 1, 1, 1], [8, 1, 4, 2, 1], [7, 1, 4, 2, 1], [7, 1, 8, 1, 1], [8, 2, 4], [1, 1, 3], [1, 1, 3]], unroll = 16, vector = [2, 1]>
// CHECK-SAME: tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: tessel.config = #tessel.config<tiles = {{\[}}[1, 1, 1, 1, 1], [128, 1, 1, 1, 1], [1, 1, 14, 2, 1], [1, 1, 14, 2, 1], [16, 8, 1], [1, 3, 1], [1, 3, 1]], unroll = 16, vector = [2, 1]>
// CHECK-SAME: shared = [0, 1]
func.func @conv_window(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>, %o: tensor<1x64x56x56xf32>,
                       %x2: tensor<1x128x30x30xf32>, %w2: tensor<128x128x3x3xf32>, %o2: tensor<1x128x28x28xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<1x128x28x28xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%o : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x2, %w2 : tensor<1x128x30x30xf32>, tensor<128x128x3x3xf32>) outs(%o2 : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %0, %1 : tensor<1x64x56x56xf32>, tensor<1x128x28x28xf32>
}

// -----

// A prime extent (8191) has no dividing tile but 1: the default covers it
// with boundary blocks, ceil(8191 / 256) = 32 blocks of 256 threads, instead
// of 8191 blocks of one thread. 50257 = 29 * 1733 too: 197 blocks of 256.
// CHECK-LABEL: func @prime_extents
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.config = #tessel.config<tiles = {{\[}}[37, 1], [32, 256]], unroll = 0>, tessel.sketch = #tessel.sketch<two_level_injective, "SS">}
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.config = #tessel.config<tiles = {{\[}}[3, 1], [197, 256]], unroll = 0>, tessel.sketch = #tessel.sketch<two_level_injective, "SS">}
#pmap = affine_map<(d0, d1) -> (d0, d1)>
func.func @prime_extents(%x: tensor<37x8191xf32>, %init: tensor<37x8191xf32>, %y: tensor<3x50257xf32>, %init2: tensor<3x50257xf32>) -> (tensor<37x8191xf32>, tensor<3x50257xf32>) {
  %0 = linalg.generic {indexing_maps = [#pmap, #pmap], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<37x8191xf32>) outs(%init : tensor<37x8191xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<37x8191xf32>
  %1 = linalg.generic {indexing_maps = [#pmap, #pmap], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<3x50257xf32>) outs(%init2 : tensor<3x50257xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<3x50257xf32>
  return %0, %1 : tensor<37x8191xf32>, tensor<3x50257xf32>
}

// -----

// Everything without a reduction gets two_level_injective.
// CHECK-LABEL: func @elementwise
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.config = #tessel.config<tiles = {{\[}}[128, 1], [3, 256]], unroll = 0>, tessel.sketch = #tessel.sketch<two_level_injective, "SS">}
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%x: tensor<128x768xf32>, %init: tensor<128x768xf32>) -> tensor<128x768xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128x768xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %z : f32
    linalg.yield %r : f32
  } -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

// -----

// Row reductions (one reduction loop, the innermost dim of the largest
// input, which is read once) split each row over a block's threads:
// cross_thread_reduction, one block a row, the largest divisor of the row
// up to 256 threads, the fill in the kernel (but for a keepdim result,
// indexed by a constant: a kernel of its own). A row sum of 128 x 768 gets
// 128 blocks of 256 threads; BERT's keepdim softmax maximum (12 x 128 rows
// of 128) 1536 blocks of 128; a 512 x 384 matvec 512 blocks of 192 (it was
// 8 blocks of 16 threads, each reducing whole rows). A column reduction
// (the reduced loop is not the input's innermost dim) and a row too short
// for a warp keep multi_level_tiling, a thread an output, with no shared
// operand (there is no reuse), accumulating in registers.
// CHECK-LABEL: func @reduction
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.config = #tessel.config<tiles = {{\[}}[128], [3, 256]], unroll = 16>, tessel.sketch = #tessel.sketch<cross_thread_reduction, "SRR">}
// CHECK: linalg.fill {tessel.config = #tessel.config<tiles = {{\[}}[1, 1], [6, 2], [1, 128], [1, 1]], unroll = 0>, tessel.sketch = #tessel.sketch<two_level_injective, "SS">}
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.config = #tessel.config<tiles = {{\[}}[1], [12], [128], [1, 128]], unroll = 16>, tessel.sketch = #tessel.sketch<cross_thread_reduction, "SRR">}
// CHECK: linalg.matvec
// CHECK-SAME: tessel.config = #tessel.config<tiles = {{\[}}[512], [2, 192]], unroll = 16>, tessel.sketch = #tessel.sketch<cross_thread_reduction, "SRR">
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.config = #tessel.config<tiles = {{\[}}[48, 1, 16, 1, 1], [128, 1, 1]], unroll = 16>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", register_accumulator>}
// CHECK: linalg.generic
// CHECK-SAME: tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", register_accumulator>
// The other fills are computed by their reductions' kernels.
// CHECK-NOT: tessel.sketch
#map = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1, d0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @reduction(%x: tensor<128x768xf32>, %init: tensor<128xf32>,
                     %s: tensor<1x12x128x128xf32>, %a: tensor<512x384xf32>, %v: tensor<384xf32>,
                     %c: tensor<128x768xf32>, %init2: tensor<768xf32>, %short: tensor<128x24xf32>)
    -> (tensor<128xf32>, tensor<1x12x128x1xf32>, tensor<512xf32>, tensor<768xf32>, tensor<128xf32>) {
  %0 = linalg.generic {indexing_maps = [#map, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s0 = arith.addf %in, %acc : f32
    linalg.yield %s0 : f32
  } -> tensor<128xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x128x1xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %1 = linalg.generic {indexing_maps = [#id4, #keep], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<1x12x128x128xf32>) outs(%f : tensor<1x12x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x12x128x1xf32>
  %ev = tensor.empty() : tensor<512xf32>
  %fv = linalg.fill ins(%zero : f32) outs(%ev : tensor<512xf32>) -> tensor<512xf32>
  %2 = linalg.matvec ins(%a, %v : tensor<512x384xf32>, tensor<384xf32>) outs(%fv : tensor<512xf32>) -> tensor<512xf32>
  %3 = linalg.generic {indexing_maps = [#col, #red], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<128x768xf32>) outs(%init2 : tensor<768xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s3 = arith.addf %in, %acc : f32
    linalg.yield %s3 : f32
  } -> tensor<768xf32>
  %4 = linalg.generic {indexing_maps = [#map, #red], iterator_types = ["parallel", "reduction"]}
      ins(%short : tensor<128x24xf32>) outs(%init : tensor<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s4 = arith.addf %in, %acc : f32
    linalg.yield %s4 : f32
  } -> tensor<128xf32>
  return %0, %1, %2, %3, %4 : tensor<128xf32>, tensor<1x12x128x1xf32>, tensor<512xf32>, tensor<768xf32>, tensor<128xf32>
}

// -----

// A reduction to one element (here a sum of all 4096 elements, as the fusion
// gives it a unit loop) would have one thread: its block's threads split
// the reduction instead, 1024 of them. A prime extent has no split, and
// fewer than 1024 elements are not worth the fill's own kernel: both keep
// multi_level_tiling.
// CHECK-LABEL: func @reduction_to_one_element
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.config = #tessel.config<tiles = {{\[}}[1], [4, 1024]], unroll = 16>, tessel.sketch = #tessel.sketch<cross_thread_reduction, "SRR">}
// CHECK: linalg.generic
// CHECK-SAME: tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", register_accumulator>
// CHECK: linalg.generic
// CHECK-SAME: tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", register_accumulator>
#in = affine_map<(d0, d1) -> (d1)>
#one = affine_map<(d0, d1) -> (d0)>
func.func @reduction_to_one_element(%x: tensor<4096xf32>, %y: tensor<4093xf32>, %z: tensor<512xf32>, %init: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %0 = linalg.generic {indexing_maps = [#in, #one], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %1 = linalg.generic {indexing_maps = [#in, #one], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4093xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %2 = linalg.generic {indexing_maps = [#in, #one], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<512xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %0, %1, %2 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// -----

// An op with a schedule keeps it exactly.
// CHECK-LABEL: func @already_scheduled
// CHECK: linalg.matmul {tessel.config = #tessel.config<tiles = {{\[}}[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>}
func.func @already_scheduled(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// A sketch without config is a tuning request: the pass leaves it alone.
// CHECK-LABEL: func @sketch_only
// CHECK: linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1]>} ins
func.func @sketch_only(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// The elementwise consumer fused into the annotated matmul gets no schedule
// of its own.
// CHECK-LABEL: func @fused_consumer_left_alone
// CHECK: linalg.matmul
// CHECK-SAME: fused_consumers = 1
// CHECK: linalg.generic
// CHECK-NOT: tessel.
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @fused_consumer_left_alone(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
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

// Ops already mapped to a GPU kernel are not scheduled again.
// CHECK-LABEL: func @inside_forall
// CHECK: scf.forall
// CHECK: linalg.fill ins
// CHECK-NOT: tessel.
// CHECK: return
func.func @inside_forall(%t: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<64xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    %s = tensor.extract_slice %o[%off] [16] [1] : tensor<64xf32> to tensor<16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%s : tensor<16xf32>) -> tensor<16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %0 : tensor<64xf32>
}

// -----

func.func @dynamic_shape(%a: tensor<?x256xf32>, %b: tensor<256x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{cannot give 'linalg.matmul' a default schedule: Tessel needs static shapes and at least one parallel loop}}
  %0 = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// A matmul with a fused epilogue on its register accumulators
// (--tessel-forward-accumulators) is double-buffered like a plain one: 1
// barrier and 8 KiB of shared memory (3 and 24 KiB with the accumulator in
// shared memory, single-stage until session 32).
// CHECK-LABEL: func @matmul_bias
// CHECK: linalg.matmul
// CHECK-SAME: tessel.config = #tessel.config<tiles = {{\[}}[4, 1, 16, 4, 1], [4, 1, 16, 4, 1], [32, 8, 1]], unroll = 16, vector = [2, 2], stages = 2>
// CHECK-SAME: tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator, fused_consumers = 1>
func.func @matmul_bias(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %bias: tensor<256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%0, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %1 : tensor<256x256xf32>
}
