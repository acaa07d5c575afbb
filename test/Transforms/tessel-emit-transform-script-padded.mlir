// A padded shared tile (`pad = [4, 0]`): the script pads A's promoted tile
// right after promote, and the stock replay (with Tessel's plugin for
// transform.tessel.pad_promoted_tiles) equals --tessel-materialize.
// RUN: tessel-opt %s --tessel-emit-transform-script | FileCheck %s
// RUN: tessel-opt %s --tessel-materialize > %t.ours
// RUN: tessel-opt %s --tessel-emit-transform-script > %t.script
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugin %t.script --transform-interpreter --test-transform-dialect-erase-schedule | sed '/module attributes {transform.with_named_sequence} {/{N;d;}' > %t.upstream
// RUN: diff %t.ours %t.upstream
// RUN: FileCheck %s --check-prefix=OURS < %t.ours

// CHECK: %[[PROMOTED:.*]] = transform.structured.promote %{{.*}} {memory_space = #gpu.address_space<workgroup>, operands_to_promote = [0, 1], use_alloca}
// CHECK-NEXT: transform.tessel.pad_promoted_tiles %[[PROMOTED]] operands = [0] pad = [4] : !transform.any_op

// A's 64 x 32 tile in 64 x 36 floats (9216 bytes), B's 32 x 64 unpadded;
// the subview folds into the accesses of the padded view.
// OURS: %[[ABYTES:.*]] = memref.get_global @{{.*}} : memref<9216xi8, #gpu.address_space<workgroup>>
// OURS: %[[BBYTES:.*]] = memref.get_global @{{.*}} : memref<8192xi8, #gpu.address_space<workgroup>>
// OURS: %[[A:.*]] = memref.view %[[ABYTES]][%{{.*}}][] : memref<9216xi8, #gpu.address_space<workgroup>> to memref<64x36xf32, #gpu.address_space<workgroup>>
// OURS: %[[B:.*]] = memref.view %[[BBYTES]][%{{.*}}][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<32x64xf32, #gpu.address_space<workgroup>>
// OURS: vector.store %{{.*}}, %[[A]][%{{.*}}, %{{.*}}] : memref<64x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// OURS: vector.load %[[A]][%{{.*}}, %{{.*}}] : memref<64x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
func.func @padded(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 1, 32, 2, 1], [4, 1, 8, 2, 4], [8, 8, 4]], unroll = 16, vector = [4, 4], pad = [4, 0]>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
