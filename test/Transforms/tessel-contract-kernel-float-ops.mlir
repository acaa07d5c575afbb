// RUN: tessel-opt %s --tessel-contract-kernel-float-ops | FileCheck %s

// Float arithmetic of kernels may contract (into FMAs); flags it had are
// kept; host code and integer ops are left alone.

// CHECK-LABEL: func.func @host
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-LABEL: gpu.func @k
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<4xf16>
// CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} : i32
module attributes {gpu.container_module} {
  func.func @host(%a: f32, %b: f32) -> f32 {
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %a : f32
    return %s : f32
  }
  gpu.module @kernels {
    gpu.func @k(%a: f32, %b: f32, %v: vector<4xf16>, %i: i32, %out: memref<f32>, %vout: memref<4xf16>, %iout: memref<i32>) kernel {
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %p, %a fastmath<nnan> : f32
      %w = arith.mulf %v, %v : vector<4xf16>
      %j = arith.addi %i, %i : i32
      memref.store %s, %out[] : memref<f32>
      %c0 = arith.constant 0 : index
      vector.store %w, %vout[%c0] : memref<4xf16>, vector<4xf16>
      memref.store %j, %iout[] : memref<i32>
      gpu.return
    }
  }
}
