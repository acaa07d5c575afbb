// RUN: tessel-opt %s --tessel-lower-bf16-mma-sync | FileCheck %s

// A bf16 m16n8k16 mma.sync accumulating in f32: each fragment row (two bf16)
// becomes one i32 register (4 for A, 2 for B), the accumulator gives 4 f32
// in row-major order, and the result struct is packed back the same way.

// CHECK-LABEL: func.func @bf16
// CHECK-SAME: (%[[A:.*]]: vector<4x2xbf16>, %[[B:.*]]: vector<2x2xbf16>, %[[C:.*]]: vector<2x2xf32>)
// CHECK: %[[A0:.*]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[A0W:.*]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[A0R:.*]] = vector.extract %[[A0W]][0] : i32 from vector<1xi32>
// CHECK: %[[A3:.*]] = vector.extract %[[A]][3] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[B1:.*]] = vector.extract %[[B]][1] : vector<2xbf16> from vector<2x2xbf16>
// CHECK: %[[C00:.*]] = vector.extract %[[C]][0, 0] : f32 from vector<2x2xf32>
// CHECK: %[[C01:.*]] = vector.extract %[[C]][0, 1] : f32 from vector<2x2xf32>
// CHECK: %[[C10:.*]] = vector.extract %[[C]][1, 0] : f32 from vector<2x2xf32>
// CHECK: %[[C11:.*]] = vector.extract %[[C]][1, 1] : f32 from vector<2x2xf32>
// CHECK: %[[D:.*]] = nvvm.mma.sync A[%[[A0R]], %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%[[C00]], %[[C01]], %[[C10]], %[[C11]]]
// CHECK-SAME: layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME: (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: %[[D3:.*]] = llvm.extractvalue %[[D]][3]
// CHECK: %[[R:.*]] = vector.from_elements %[[D0]], %{{.*}}, %{{.*}}, %[[D3]] : vector<2x2xf32>
// CHECK: return %[[R]]
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// f16 mma.sync is left to upstream's conversion.
// CHECK-LABEL: func.func @f16
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.mma.sync
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// Fragments of f16 bits bitcast to bf16 (as the tensor_core conversion
// leaves them) are read row by row from the f16 fragments: no n-D bitcast
// is left for the LLVM conversion.
// CHECK-LABEL: func.func @bitcast_fragments
// CHECK-SAME: (%[[A:.*]]: vector<4x2xf16>, %[[B:.*]]: vector<2x2xf16>
// CHECK: %[[A0:.*]] = vector.extract %[[A]][0] : vector<2xf16> from vector<4x2xf16>
// CHECK: vector.bitcast %[[A0]] : vector<2xf16> to vector<1xi32>
// CHECK: %[[B0:.*]] = vector.extract %[[B]][0] : vector<2xf16> from vector<2x2xf16>
// CHECK: vector.bitcast %[[B0]] : vector<2xf16> to vector<1xi32>
// CHECK-NOT: vector<4x2xbf16>
// CHECK: nvvm.mma.sync
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>
func.func @bitcast_fragments(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %ab = vector.bitcast %a : vector<4x2xf16> to vector<4x2xbf16>
  %bb = vector.bitcast %b : vector<2x2xf16> to vector<2x2xbf16>
  %d = nvgpu.mma.sync(%ab, %bb, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
