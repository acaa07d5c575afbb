// RUN: tessel-opt %s --tessel-emit-transform-script | FileCheck %s
// Replaying the script with stock mlir-opt and the plugin (for
// transform.tessel.rewrite_window_accesses) on the emitted payload (where
// the pad is already a gather) gives exactly what --tessel-materialize gives.
// RUN: tessel-opt %s --tessel-materialize > %t.ours
// RUN: tessel-opt %s --tessel-emit-transform-script > %t.script
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin %t.script --transform-interpreter --test-transform-dialect-erase-schedule | sed '/module attributes {transform.with_named_sequence} {/{N;d;}' > %t.upstream
// RUN: diff %t.ours %t.upstream
// RUN: FileCheck %s --check-prefix=OURS < %t.ours

// The payload: the pad rewritten into a gather generic (anchor 2), the
// fill (0), the ReLU (1) and the convolution (3).
// CHECK-LABEL: func.func @conv_pad_relu
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x18x18xf32>) attrs = {tessel.anchor = 2 : i64, tessel.inlined_pad}
// CHECK: tensor.extract
// CHECK: arith.select
// The script: the ReLU tiled into the block forall, the convolution, the
// fill and the pad fused into it; the staging loops made on tensors and the
// pad fused into them, writing a workgroup buffer.
// CHECK: transform.structured.tile_using_forall
// CHECK: transform.structured.fuse_into_containing_op
// CHECK: transform.structured.fuse_into_containing_op
// CHECK: transform.structured.bufferize_to_allocation
// CHECK: %[[PAD:.*]] = transform.structured.match attributes {tessel.anchor = 2 : i64}
// CHECK: %[[BLOCKPAD:.*]], %{{.*}} = transform.structured.fuse_into_containing_op %[[PAD]] into
// CHECK: %{{.*}}, %[[LOOPS:.*]]:3 = transform.structured.tile_using_for
// CHECK: %[[TILEPAD:.*]], %{{.*}} = transform.structured.fuse_into_containing_op %[[BLOCKPAD]] into %[[LOOPS]]#2
// CHECK: transform.structured.bufferize_to_allocation %[[TILEPAD]] {alloc_op = "memref.alloca", bufferize_destination_only, memory_space = #gpu.address_space<workgroup>}
// CHECK: transform.bufferization.one_shot_bufferize
// No promotion: the only shared operand is computed by the pad.
// CHECK-NOT: transform.structured.promote
// CHECK: transform.get_parent_op %{{.*}} {nth_parent = 3 : i64, op_name = "scf.for"}
// CHECK-NOT: transform.structured.promote
// CHECK: transform.gpu.map_forall_to_blocks
// The convolution's register-level tile reads its input window through a
// strided view before vectorization.
// CHECK: %[[CONV:.*]] = transform.structured.match attributes {tessel.anchor = 3 : i64}
// CHECK: transform.tessel.rewrite_window_accesses %[[CONV]]
// CHECK: transform.structured.vectorize_children_and_apply_patterns

// One kernel: pad, convolution, fill and ReLU.
// OURS-LABEL: func.func @conv_pad_relu
// OURS-COUNT-1: gpu.launch
// OURS-NOT: gpu.launch
func.func @conv_pad_relu(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32> {
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>,
     tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0], register_accumulator, fused_consumers = 1, inlined = [0]>,
     tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [2, 2, 4, 1, 1], [2, 1, 8, 1, 1], [1, 1, 4, 4, 1], [4, 2, 1], [3, 1, 1], [3, 1, 1]], unroll = 64, vector = [1]>}
     ins(%padded, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%f : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x16x16x16xf32>) outs(%e : tensor<1x16x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x16x16x16xf32>
  return %r : tensor<1x16x16x16xf32>
}
