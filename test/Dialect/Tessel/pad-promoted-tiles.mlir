// RUN: tessel-opt %s -split-input-file --transform-interpreter -verify-diagnostics | FileCheck %s

// transform.tessel.pad_promoted_tiles after transform.structured.promote: the
// workgroup tile of A (32 x 8 f32) gets rows of 12 elements. Its byte array
// grows from 1024 to 1536 bytes; the copy and the matmul see the 32 x 8
// elements through a subview with row pitch 12 (promote's partial view is
// rebuilt on it); B's tile is left alone.
// CHECK-LABEL: func.func @pad_a
// CHECK-SAME: (%[[A:.*]]: memref<64x16xf32>, %[[B:.*]]: memref<16x64xf32>, %[[C:.*]]: memref<32x32xf32>)
// CHECK: %[[ASRC:.*]] = memref.subview %[[A]]
// CHECK: %[[BSRC:.*]] = memref.subview %[[B]]
// CHECK: %[[ABYTES:.*]] = memref.alloca() : memref<1536xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[AFULL:.*]] = memref.view %[[ABYTES]][%{{.*}}][] : memref<1536xi8, #gpu.address_space<workgroup>> to memref<32x12xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[AROWS:.*]] = memref.subview %[[AFULL]][0, 0] [32, 8] [1, 1] : memref<32x12xf32, #gpu.address_space<workgroup>> to memref<32x8xf32, strided<[12, 1]>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[ATILE:.*]] = memref.subview %[[AROWS]][0, 0] [%{{.*}}, %{{.*}}] [1, 1] : memref<32x8xf32, strided<[12, 1]>, #gpu.address_space<workgroup>> to memref<?x?xf32, strided<[12, 1]>, #gpu.address_space<workgroup>>
// CHECK: %[[BBYTES:.*]] = memref.alloca() : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BFULL:.*]] = memref.view %[[BBYTES]][%{{.*}}][%{{.*}}, %{{.*}}] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<?x?xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BTILE:.*]] = memref.subview %[[BFULL]]
// CHECK-NEXT: linalg.copy ins(%[[ASRC]] : {{.*}}) outs(%[[ATILE]] : {{.*}})
// CHECK-NEXT: linalg.copy ins(%[[BSRC]] : {{.*}}) outs(%[[BTILE]] : {{.*}})
// CHECK-NEXT: linalg.matmul ins(%[[ATILE]], %[[BTILE]] : {{.*}}) outs(%[[C]] : memref<32x32xf32>)
func.func @pad_a(%a: memref<64x16xf32>, %b: memref<16x64xf32>, %c: memref<32x32xf32>) {
  %ta = memref.subview %a[0, 0] [32, 8] [1, 1] : memref<64x16xf32> to memref<32x8xf32, strided<[16, 1]>>
  %tb = memref.subview %b[0, 0] [8, 32] [1, 1] : memref<16x64xf32> to memref<8x32xf32, strided<[64, 1]>>
  linalg.matmul ins(%ta, %tb : memref<32x8xf32, strided<[16, 1]>>, memref<8x32xf32, strided<[64, 1]>>) outs(%c : memref<32x32xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %promoted = transform.structured.promote %mm {operands_to_promote = [0, 1], use_alloca, memory_space = #gpu.address_space<workgroup>} : (!transform.any_op) -> !transform.any_op
    transform.tessel.pad_promoted_tiles %promoted operands = [0] pad = [4] : !transform.any_op
    transform.yield
  }
}

// -----

// An operand that was not promoted is not a shared tile.
func.func @not_promoted(%a: memref<64x16xf32>, %b: memref<16x64xf32>, %c: memref<32x32xf32>) {
  %ta = memref.subview %a[0, 0] [32, 8] [1, 1] : memref<64x16xf32> to memref<32x8xf32, strided<[16, 1]>>
  %tb = memref.subview %b[0, 0] [8, 32] [1, 1] : memref<16x64xf32> to memref<8x32xf32, strided<[64, 1]>>
  linalg.matmul ins(%ta, %tb : memref<32x8xf32, strided<[16, 1]>>, memref<8x32xf32, strided<[64, 1]>>) outs(%c : memref<32x32xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %promoted = transform.structured.promote %mm {operands_to_promote = [0], use_alloca, memory_space = #gpu.address_space<workgroup>} : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{cannot pad a shared tile: operand 1 is not a promoted shared tile}}
    transform.tessel.pad_promoted_tiles %promoted operands = [1] pad = [4] : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @+1 {{has 2 operands but 1 pads}}
    transform.tessel.pad_promoted_tiles %root operands = [0, 1] pad = [4] : !transform.any_op
    transform.yield
  }
}
