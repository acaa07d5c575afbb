// RUN: tessel-opt %s -split-input-file --transform-interpreter -verify-diagnostics | FileCheck %s

// transform.tessel.convert_to_mma_sync on a warp-level 16x8x16 contraction of
// f16 tiles from shared memory, accumulated in f32 from a zero init: the
// tiles are read with ldmatrix (B transposed), the extensions fold into one
// mma.sync, the init's zeros are forwarded (C is never read) and the result
// is stored per lane.

// CHECK-LABEL: func.func @warp_tile
// CHECK-NOT: vector.contract
// CHECK-NOT: vector.transfer_read %{{.*}} : memref<16x8xf32>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true}
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: vector.store
func.func @warp_tile(%a: memref<16x16xf16, #gpu.address_space<workgroup>>,
                     %b: memref<16x8xf16, #gpu.address_space<workgroup>>,
                     %c: memref<16x8xf32>) {
  %one = arith.constant 1 : index
  %lanes = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %one, %y = %one, %z = %one)
             threads(%tx, %ty, %tz) in (%u = %lanes, %v = %one, %w = %one) {
    %c0 = arith.constant 0 : index
    %h = arith.constant 0.0 : f16
    %f = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    vector.transfer_write %zero, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    %va = vector.transfer_read %a[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %vb = vector.transfer_read %b[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x8xf16, #gpu.address_space<workgroup>>, vector<16x8xf16>
    %vc = vector.transfer_read %c[%c0, %c0], %f {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %ea = arith.extf %va : vector<16x16xf16> to vector<16x16xf32>
    %eb = arith.extf %vb : vector<16x8xf16> to vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %ea, %eb, %vc : vector<16x16xf32>, vector<16x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.convert_to_mma_sync %launch : !transform.any_op
    transform.yield
  }
}

// -----

// A contraction whose result feeds an op mma fragments cannot hold (exp) is
// left by the conversion: an error at the kernel, never a silent CUDA-core
// kernel.

func.func @left_over(%a: memref<16x16xf16, #gpu.address_space<workgroup>>,
                     %b: memref<16x8xf16, #gpu.address_space<workgroup>>,
                     %c: memref<16x8xf32>) {
  %one = arith.constant 1 : index
  %lanes = arith.constant 32 : index
  // expected-error @+2 {{tensor_core: a warp contraction did not become mma.sync}}
  // expected-note @+1 {{the contraction: }}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %one, %y = %one, %z = %one)
             threads(%tx, %ty, %tz) in (%u = %lanes, %v = %one, %w = %one) {
    %c0 = arith.constant 0 : index
    %h = arith.constant 0.0 : f16
    %f = arith.constant 0.0 : f32
    %va = vector.transfer_read %a[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %vb = vector.transfer_read %b[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x8xf16, #gpu.address_space<workgroup>>, vector<16x8xf16>
    %vc = vector.transfer_read %c[%c0, %c0], %f {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %ea = arith.extf %va : vector<16x16xf16> to vector<16x16xf32>
    %eb = arith.extf %vb : vector<16x8xf16> to vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %ea, %eb, %vc : vector<16x16xf32>, vector<16x8xf32> into vector<16x8xf32>
    %e = math.exp %d : vector<16x8xf32>
    vector.transfer_write %e, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.convert_to_mma_sync %launch : !transform.any_op
    transform.yield
  }
}

// -----

// bf16 tiles: upstream's conversion knows f16 fragments only, so the staged
// tiles are viewed as f16 (the staging copies store their bf16 vectors
// bitcast), read with ldmatrix as f16 and the fragments bitcast back into a
// bf16 mma.sync; no extension is left.

// CHECK-LABEL: func.func @bf16_tiles
// CHECK-DAG: %[[TA:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<16x16xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[TB:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<16x8xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[BA:.*]] = vector.bitcast %{{.*}} : vector<16xbf16> to vector<16xf16>
// CHECK-DAG: vector.transfer_write %[[BA]], %[[TA]]
// CHECK-DAG: %[[BB:.*]] = vector.bitcast %{{.*}} : vector<8xbf16> to vector<8xf16>
// CHECK-DAG: vector.transfer_write %[[BB]], %[[TB]]
// CHECK: %[[LA:.*]] = nvgpu.ldmatrix %[[TA]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[LB:.*]] = nvgpu.ldmatrix %[[TB]]{{.*}} {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-DAG: %[[FA:.*]] = vector.bitcast %[[LA]] : vector<4x2xf16> to vector<4x2xbf16>
// CHECK-DAG: %[[FB:.*]] = vector.bitcast %[[LB]] : vector<2x2xf16> to vector<2x2xbf16>
// CHECK: nvgpu.mma.sync(%[[FA]], %[[FB]], %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: arith.extf
// CHECK-NOT: vector.contract
func.func @bf16_tiles(%ga: memref<16x16xbf16>, %gb: memref<16x8xbf16>,
                      %smem: memref<1024xi8, #gpu.address_space<workgroup>>,
                      %c: memref<16x8xf32>) {
  %one = arith.constant 1 : index
  %lanes = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %one, %y = %one, %z = %one)
             threads(%tx, %ty, %tz) in (%u = %lanes, %v = %one, %w = %one) {
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %h = arith.constant 0.0 : bf16
    %f = arith.constant 0.0 : f32
    %ta = memref.view %smem[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<16x16xbf16, #gpu.address_space<workgroup>>
    %tb = memref.view %smem[%c512][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<16x8xbf16, #gpu.address_space<workgroup>>
    // Lanes 0-15 stage one row each of A and B.
    %row = affine.apply affine_map<()[s0] -> (s0 mod 16)>()[%tx]
    %sa = vector.transfer_read %ga[%row, %c0], %h {in_bounds = [true]} : memref<16x16xbf16>, vector<16xbf16>
    vector.transfer_write %sa, %ta[%row, %c0] {in_bounds = [true]} : vector<16xbf16>, memref<16x16xbf16, #gpu.address_space<workgroup>>
    %sb = vector.transfer_read %gb[%row, %c0], %h {in_bounds = [true]} : memref<16x8xbf16>, vector<8xbf16>
    vector.transfer_write %sb, %tb[%row, %c0] {in_bounds = [true]} : vector<8xbf16>, memref<16x8xbf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    vector.transfer_write %zero, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    %va = vector.transfer_read %ta[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %vb = vector.transfer_read %tb[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x8xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
    %vc = vector.transfer_read %c[%c0, %c0], %f {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %ea = arith.extf %va : vector<16x16xbf16> to vector<16x16xf32>
    %eb = arith.extf %vb : vector<16x8xbf16> to vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %ea, %eb, %vc : vector<16x16xf32>, vector<16x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.convert_to_mma_sync %launch : !transform.any_op
    transform.yield
  }
}

// -----

// bf16 operands that are not reads of a staged tile (a view of shared
// memory) cannot be viewed as f16: an error, not a wrong conversion.

func.func @bf16_unstaged(%a: memref<16x16xbf16, #gpu.address_space<workgroup>>,
                         %b: memref<16x8xbf16, #gpu.address_space<workgroup>>,
                         %c: memref<16x8xf32>) {
  %one = arith.constant 1 : index
  %lanes = arith.constant 32 : index
  // expected-error @+1 {{tensor_core: a bf16 warp operand is not read from a staged shared-memory tile}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %one, %y = %one, %z = %one)
             threads(%tx, %ty, %tz) in (%u = %lanes, %v = %one, %w = %one) {
    %c0 = arith.constant 0 : index
    %h = arith.constant 0.0 : bf16
    %f = arith.constant 0.0 : f32
    %va = vector.transfer_read %a[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %vb = vector.transfer_read %b[%c0, %c0], %h {in_bounds = [true, true]} : memref<16x8xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
    %vc = vector.transfer_read %c[%c0, %c0], %f {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %ea = arith.extf %va : vector<16x16xbf16> to vector<16x16xf32>
    %eb = arith.extf %vb : vector<16x8xbf16> to vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %ea, %eb, %vc : vector<16x16xf32>, vector<16x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.convert_to_mma_sync %launch : !transform.any_op
    transform.yield
  }
}
