// RUN: tessel-opt %s --tessel-emit-transform-script | FileCheck %s
// The script uses upstream ops only: stock mlir-opt parses and verifies it.
// RUN: tessel-opt %s --tessel-emit-transform-script | mlir-opt | FileCheck %s --check-prefix=STOCK

// Replaying the script with stock mlir-opt gives exactly what
// --tessel-materialize gives. The interpreter leaves the emptied script
// module behind; the sed deletes that line and the next one (its closing
// brace) and nothing else.
// RUN: tessel-opt %s --tessel-materialize > %t.ours
// RUN: tessel-opt %s --tessel-emit-transform-script > %t.script
// RUN: mlir-opt %t.script --transform-interpreter --test-transform-dialect-erase-schedule | sed '/module attributes {transform.with_named_sequence} {/{N;d;}' > %t.upstream
// RUN: diff %t.ours %t.upstream
// Make sure the comparison is not vacuous.
// RUN: FileCheck %s --check-prefix=OURS < %t.ours

// The schedule attributes are replaced by an anchor.
// CHECK-LABEL: func @matmul_shared
// CHECK: linalg.matmul {tessel.anchor = 0 : i64} ins
// CHECK-NOT: tessel.sketch
// CHECK-NOT: tessel.config
// CHECK: module attributes {transform.with_named_sequence}
// CHECK: transform.named_sequence @__transform_main(%[[ROOT:.*]]: !transform.any_op {transform.consumed})
// CHECK: transform.tune.knob<"op0.unroll"> = 64 : i64 from options = [0, 16, 64, 512, 1024] -> !transform.param<i64>
// CHECK: %[[OP:.*]] = transform.structured.match attributes {tessel.anchor = 0 : i64} in %[[ROOT]]
// Block tiles: 128 / 4 = 32 and 64 / 4 = 16; options are the divisors of the extent.
// CHECK: %[[BT0:.*]] = transform.tune.knob<"op0.d0.block_tile"> = 32 : i64 from options = [1, 2, 4, 8, 16, 32, 64, 128] -> !transform.param<i64>
// CHECK: %[[BT1:.*]] = transform.tune.knob<"op0.d1.block_tile"> = 16 : i64 from options = [1, 2, 4, 8, 16, 32, 64] -> !transform.param<i64>
// CHECK: transform.structured.tile_using_forall %[[OP]] tile_sizes [%[[BT0]], %[[BT1]], 0](mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// CHECK: transform.bufferization.one_shot_bufferize
// Stage tile: 256 / 32 = 8.
// CHECK: transform.tune.knob<"op0.d2.stage_tile"> = 8 : i64 from options = [1, 2, 4, 8, 16, 32, 64, 128, 256]
// CHECK: transform.structured.promote %{{.*}} {memory_space = #gpu.address_space<workgroup>, operands_to_promote = [0, 1], use_alloca}
// CHECK: transform.tune.knob<"op0.operand0.vector"> = 1 : i64 from options = [1, 2, 4, 8, 16]
// CHECK: transform.tune.knob<"op0.operand1.vector"> = 1 : i64 from options = [1, 2, 4, 8, 16]
// CHECK: transform.tune.knob<"op0.d0.vthread_tile"> = 16 : i64
// CHECK: transform.tune.knob<"op0.d0.thread_tile"> = 2 : i64
// CHECK: transform.tune.knob<"op0.d1.thread_tile"> = 1 : i64
// CHECK: transform.tune.knob<"op0.d2.inner_tile"> = 4 : i64
// CHECK: transform.tune.knob<"op0.d0.register_tile"> = 1 : i64
// CHECK: transform.memref.alloca_to_global
// CHECK: transform.gpu.map_forall_to_blocks %{{.*}} generate_gpu_launch grid_dims = [16, 1, 1]
// CHECK: transform.gpu.map_nested_forall_to_threads %{{.*}} block_dims = [128, 1, 1]
// CHECK: transform.structured.vectorize_children_and_apply_patterns
// CHECK: transform.structured.hoist_redundant_vector_transfers
// CHECK: transform.structured.hoist_redundant_vector_transfers
// CHECK: transform.yield
// No Tessel op or attribute in the script (only the discardable markers
// tessel.anchor, tessel.kernel and tessel.unroll, as plain integers).
// CHECK-NOT: #tessel.
// CHECK-NOT: "tessel.
// CHECK-NOT: tessel.sketch

// STOCK-LABEL: func @matmul_shared
// STOCK: transform.named_sequence @__transform_main
// STOCK-COUNT-10: transform.tune.knob<"op0.

// OURS-LABEL: func @matmul_shared
// OURS: gpu.launch
// OURS: gpu.barrier
// OURS: memref.global "private" @{{.*}} : memref<1024xi8, #gpu.address_space<workgroup>>
func.func @matmul_shared(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
