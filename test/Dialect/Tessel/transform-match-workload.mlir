// RUN: tessel-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.tessel.match.workload succeeds on the ops whose workload key is
// the given one: the first matmul, not the one of other shapes nor the
// non-linalg ops, for which it fails silenceably (foreach_match moves on).

func.func @payload(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>,
                   %d: tensor<16x8xf32>, %e: tensor<8x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  // expected-remark @below {{tuned workload}}
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = linalg.matmul ins(%a, %d : tensor<8x16xf32>, tensor<16x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<8x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.tessel.match.workload %op "linalg.matmul ins(tensor<8x16xf32>, tensor<16x4xf32>) outs(arg:tensor<8x4xf32>) maps[(d0, d1, d2) -> (d0, d2), (d0, d1, d2) -> (d2, d1), (d0, d1, d2) -> (d0, d1)] iters[parallel, parallel, reduction] attrs{}" : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @remark(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "tuned workload" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %root @match -> @remark : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    // expected-error @below {{'transform.tessel.match.workload' op expects 'workload' to be a workload key "<dialect>.<op> ins(...) outs(...) ..." as tessel-tune stores it, got "matmul 8x16x4"}}
    transform.tessel.match.workload %op "matmul 8x16x4" : !transform.any_op
    transform.yield %op : !transform.any_op
  }
}
