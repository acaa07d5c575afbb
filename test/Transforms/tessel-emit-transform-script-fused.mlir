// matmul + bias + relu: the init fill, the matmul and the consumer all get
// an anchor, and the stock replay (with Tessel's plugin for
// transform.tessel.init_from_empty) equals --tessel-materialize.
// RUN: tessel-opt %s --tessel-emit-transform-script | FileCheck %s
// RUN: tessel-opt %s --tessel-materialize > %t.ours
// RUN: tessel-opt %s --tessel-emit-transform-script > %t.script
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin %t.script --transform-interpreter --test-transform-dialect-erase-schedule | sed '/module attributes {transform.with_named_sequence} {/{N;d;}' > %t.upstream
// RUN: diff %t.ours %t.upstream
// RUN: FileCheck %s --check-prefix=OURS < %t.ours

// CHECK-LABEL: func @matmul_bias_relu
// CHECK: linalg.fill {tessel.anchor = 0 : i64}
// CHECK: linalg.matmul {tessel.anchor = 2 : i64}
// CHECK: linalg.generic
// CHECK-SAME: attrs = {tessel.anchor = 1 : i64}
// CHECK: transform.named_sequence @__transform_main
// CHECK: transform.tune.knob<"op2.unroll"> = 0 : i64 from options = [0, 16, 64, 512, 1024]
// CHECK: %[[MM:.*]] = transform.structured.match attributes {tessel.anchor = 2 : i64}
// CHECK: %[[CONSUMER:.*]] = transform.structured.match attributes {tessel.anchor = 1 : i64}
// CHECK: transform.tune.knob<"op2.d1.block_tile"> = 32 : i64 from options = [1, 2, 4, 8, 16, 32, 64]
// CHECK: %{{.*}}, %[[FORALL:.*]] = transform.structured.tile_using_forall %[[CONSUMER]]
// CHECK: %[[FILL:.*]] = transform.structured.match attributes {tessel.anchor = 0 : i64}
// CHECK: transform.structured.fuse_into_containing_op %[[MM]] into %[[FORALL]]
// CHECK: %[[FUSEDFILL:.*]], %{{.*}} = transform.structured.fuse_into_containing_op %[[FILL]] into
// The fill's destination made empty: the shared accumulator is not first
// copied from the output.
// CHECK: transform.tessel.init_from_empty %[[FUSEDFILL]]
// CHECK: transform.structured.bufferize_to_allocation %[[FUSEDFILL]] {{.*}} memory_space = #gpu.address_space<workgroup>
// CHECK: transform.tune.knob<"op2.d2.stage_tile"> = 4 : i64 from options = [1, 2, 4, 8, 16, 32, 64, 128, 256]
// CHECK: transform.tune.knob<"op2.d1.vthread_tile"> = 16 : i64
// CHECK: transform.tune.knob<"op2.d0.thread_tile"> = 4 : i64
// CHECK: transform.tune.knob<"op2.d2.inner_tile"> = 2 : i64
// CHECK: transform.gpu.map_forall_to_blocks %{{.*}} generate_gpu_launch grid_dims = [2, 1, 1]
// CHECK: transform.gpu.map_nested_forall_to_threads %{{.*}} block_dims = [256, 1, 1]
// CHECK-NOT: transform.gpu.map_forall_to_blocks
// CHECK-NOT: #tessel.

// OURS-LABEL: func @matmul_bias_relu
// OURS: gpu.launch
// OURS: arith.maximumf
// OURS: gpu.terminator
// OURS-NOT: gpu.launch
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
