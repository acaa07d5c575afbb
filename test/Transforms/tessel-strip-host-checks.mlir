// RUN: tessel-opt %s -split-input-file --tessel-strip-host-checks -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module
// The unused seed global is erased; a used global stays.
// CHECK-NOT: @global_seed
// CHECK: ml_program.global private mutable @used(dense<1> : tensor<i64>) : tensor<i64>
// CHECK-NOT: @global_seed
ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
ml_program.global private mutable @used(dense<1> : tensor<i64>) : tensor<i64>

// A check that folds to true is erased.
// CHECK-LABEL: func @const_true
// CHECK-NOT: cf.assert
// CHECK: return
func.func @const_true(%x: i64) -> i64 {
  %true = arith.constant true
  cf.assert %true, "always true"
  return %x : i64
}

// A check on data is dropped with a warning.
// CHECK-LABEL: func @data_dependent
// CHECK-SAME: (%[[I:.*]]: i64, %[[N:.*]]: i64)
// CHECK: arith.cmpi slt, %[[I]], %[[N]]
// CHECK-NOT: cf.assert
// CHECK: return %[[I]]
func.func @data_dependent(%i: i64, %n: i64) -> i64 {
  %c = arith.cmpi slt, %i, %n : i64
  // expected-warning @+1 {{runtime check on data dropped (kernels do not check it): 'index out of bounds'}}
  cf.assert %c, "index out of bounds"
  return %i : i64
}

func.func @use() -> tensor<i64> {
  %0 = ml_program.global_load @used : tensor<i64>
  return %0 : tensor<i64>
}

// -----

// A check that folds to false fails the compilation.
func.func @const_false(%x: i64) -> i64 {
  %false = arith.constant false
  // expected-error @+1 {{runtime check always fails: 'mismatching contracting dimension'}}
  cf.assert %false, "mismatching contracting dimension"
  return %x : i64
}
